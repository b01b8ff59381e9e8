# HARD.FUZZ targets (spec/hardening.md). dpref_fuzz_targets(<command>) is the one table of the
# targets that have a seed corpus replay: it calls <command>(<name> <source> [DEFINES <d...>] [CLI])
# for each (CLI: the target includes src/cli). tests/fuzz/CMakeLists.txt makes them fuzzers (preset
# `fuzz`); tests/cmake/hardening.cmake makes them corpus replays in every other build.
function(dpref_fuzz_targets command)
  cmake_language(CALL ${command} json_ledger fuzz_json_ledger.cpp)
  cmake_language(CALL ${command} csv fuzz_datasets.cpp DEFINES DPREF_FUZZ_READER=1)
  cmake_language(CALL ${command} libsvm fuzz_datasets.cpp DEFINES DPREF_FUZZ_READER=2)
  cmake_language(CALL ${command} idx fuzz_datasets.cpp DEFINES DPREF_FUZZ_READER=3)
  cmake_language(CALL ${command} base_load fuzz_base_load.cpp)
  cmake_language(CALL ${command} cli_args fuzz_cli_args.cpp CLI)
endfunction()
