# The papers of dpref, written once (spec/architecture.md "The list of papers"), in the order of
# the tools' tables (src/papers, `dpref.papers()`): each has include/dpref/<paper>/, its
# src/papers/<paper>_runner.cpp, examples/<paper>.json and tests/cmake/<paper>.cmake.
# Everything that lists the papers reads this list: dpref_papers' sources and the generated
# papers/paper_list.hpp (src/papers/papers.hpp, papers.cpp; the Python module's runner table),
# the ctest loops (tests/cmake/architecture.cmake) and scripts/check_include_graph (parses it).
set(DPREF_PAPERS ev linesearch dda pwa accel)

# In the build tree (folder `dir`): papers/paper_list.hpp, whose DPREF_FOR_EACH_PAPER(X) expands
# X(<paper>) per paper, and papers/paper_conformance.hpp, the <paper>/conformance.hpp includes of
# the trajectory families.
function(dpref_write_paper_list dir)
  set(x "")
  set(inc "")
  foreach(p ${DPREF_PAPERS})
    string(APPEND x " X(${p})")
    string(APPEND inc "#include \"dpref/${p}/conformance.hpp\"\n")
  endforeach()
  set(head "// Generated from cmake/papers.cmake (DPREF_PAPERS): do not edit.\n#pragma once\n")
  file(CONFIGURE OUTPUT ${dir}/papers/paper_list.hpp
       CONTENT "${head}#define DPREF_FOR_EACH_PAPER(X)${x}\n")
  file(CONFIGURE OUTPUT ${dir}/papers/paper_conformance.hpp CONTENT "${head}${inc}")
endfunction()
