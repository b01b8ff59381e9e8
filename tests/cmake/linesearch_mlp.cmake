# linesearch §5.7: one-hidden-layer MLP, DP-BLSGD vs DP-SGD (issue 7, spec/linesearch.md "MLP (§5.7)").
dpref_add_test(linesearch_mlp_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/linesearch_mlp_test.cpp)
# CLI smoke tests (wiring only; the numbers are tested above). CI has no data/real: the first
# runs on synthetic 10-class data; the second checks that a missing --data-dir fails loudly
# (no silent skip). The full Fashion-MNIST run of spec/linesearch.md (seed 1; needs
# scripts/real_data.sh; ~10 min) is label slow.
if(TARGET dpref_cli)
  add_test(NAME linesearch_cli_mlp
           COMMAND dpref_cli linesearch mlp --synthetic-n 300 --synthetic-d 8 --hidden 6 --iterations 12
                   --eval-every 4 --q 0.1 --eps 4 --max-order 64)
  set_tests_properties(linesearch_cli_mlp PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"paper_accounting_guarantee\".*\"lemma4_accounting_guarantee\"")
  add_test(NAME linesearch_cli_mlp_missing_data
           COMMAND dpref_cli linesearch mlp --data-dir ${PROJECT_BINARY_DIR}/no-such-fashion-mnist --iterations 2)
  set_tests_properties(linesearch_cli_mlp_missing_data PROPERTIES LABELS unit WILL_FAIL TRUE)
  add_test(NAME linesearch_mlp_full
           COMMAND dpref_cli linesearch mlp --data-dir ${PROJECT_SOURCE_DIR}/data/real/fashion-mnist
                   --iterations 2000 --eval-every 50 --early-until 200 --early-every 10 --eps 2 --delta 1e-5 --seed 1
                   --out ${PROJECT_BINARY_DIR}/linesearch_mlp.json --png-dir ${PROJECT_BINARY_DIR}/linesearch_mlp
                   --plot-script ${PROJECT_SOURCE_DIR}/scripts/linesearch_mlp_plots.py)
  set_tests_properties(linesearch_mlp_full PROPERTIES LABELS slow TIMEOUT 36000)
endif()
