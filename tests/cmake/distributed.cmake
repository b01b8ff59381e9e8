# Distributed runs (spec/distributed.md): ctest label `mpi`; needs the MPI backend and mpirun.
# Ranks 1, 2 and 3 (--oversubscribe) must give byte-identical output to the serial run; a rank
# that fails mid-run must stop every rank with its message (no hang: each test has a timeout).
if(TARGET dpref_cli AND TARGET dpref::mpi)
  find_program(DPREF_MPIRUN NAMES mpirun mpiexec)
  if(DPREF_MPIRUN)
    set(DPREF_MPI_ENV "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
    add_test(NAME DIST_AUDIT_identical
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_identical.sh $<TARGET_FILE:dpref_cli> "1 2 3" --
                     audit laplace --samples 300000 --threads 1 --json)
    add_test(NAME DIST_AUDIT_identical_violation_counts
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_identical.sh $<TARGET_FILE:dpref_cli> "2 3" --
                     audit textbook-laplace --samples 200000 --threads 1 --json)
    # DIST.ABORT: a rank that fails aborts every rank with its message, within the time limit.
    # No test hook in the binary: one MPI job of three programs (MPMD) where rank 1 alone gets an
    # invalid flag (tests/cli/mpi_abort.sh); the control runs it with valid flags everywhere and
    # must fail the check (WILL_FAIL)
    add_test(NAME DIST_ABORT_audit
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_abort.sh $<TARGET_FILE:dpref_cli> 60
                     "--epsilon 0.5x"
                     "dpref: rank 1 of 3: invalid input: --epsilon must be a decimal number, got '0.5x'"
                     -- audit laplace --samples 300000 --threads 1)
    add_test(NAME DIST_ABORT_ev
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_abort.sh $<TARGET_FILE:dpref_cli> 60
                     "--iterations 2x" "dpref: rank 1 of 3: invalid input: --iterations must be an integer"
                     -- ev run --params ${PROJECT_SOURCE_DIR}/examples/ev.json)
    add_test(NAME DIST_ABORT_control
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_abort.sh $<TARGET_FILE:dpref_cli> 60 ""
                     "dpref: rank 1 of 3: " -- audit laplace --samples 300000 --threads 1)
    set_tests_properties(DIST_ABORT_control PROPERTIES WILL_FAIL TRUE)
    # DIST.EV: users split over the ranks in 1024-user blocks (the example has one block; the
    # per-user instance has 5, so every rank owns blocks), noise from rank 0
    add_test(NAME DIST_EV_identical
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_identical.sh $<TARGET_FILE:dpref_cli> "1 2 3" --
                     ev run --params ${PROJECT_SOURCE_DIR}/examples/ev.json)
    add_test(NAME DIST_EV_identical_blocks
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_identical.sh $<TARGET_FILE:dpref_cli> "1 2 3" --
                     ev run --params ${PROJECT_SOURCE_DIR}/examples/ev_per_user.json
                     --users 5000 --iterations 20)
    add_test(NAME DIST_EV_identical_mp50
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_identical.sh $<TARGET_FILE:dpref_cli> "2 3" --
                     ev run --params ${PROJECT_SOURCE_DIR}/examples/ev_per_user.json --precision mp50
                     --users 2100 --iterations 3)
    # without the optimum each rank draws only its owned columns' specs (a slice): grouped
    # multiplicities of the slice, and Algorithm 1 from the projected-zero start, whose initial
    # load is summed in column order along the ranks
    add_test(NAME DIST_EV_identical_grouped_slices
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_identical.sh $<TARGET_FILE:dpref_cli> "2 3" --
                     ev run --params ${PROJECT_SOURCE_DIR}/examples/ev_per_user.json --mode grouped
                     --users 7000 --groups 3000 --iterations 8)
    add_test(NAME DIST_EV_identical_projected_zero
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_identical.sh $<TARGET_FILE:dpref_cli> "2 3" --
                     ev run --params ${PROJECT_SOURCE_DIR}/examples/ev_per_user.json
                     --users 4000 --iterations 8 --algorithm projected_gradient
                     --start projected_zero --step 0.5)
    # DIST.DDA: nodes split over the ranks; u_j point to point along the crossing edges of W^(t),
    # ζ_j and the node states gathered to rank 0
    add_test(NAME DIST_DDA_identical
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_identical.sh $<TARGET_FILE:dpref_cli> "1 2 3" --
                     dda run --params ${PROJECT_SOURCE_DIR}/examples/dda.json)
    add_test(NAME DIST_DDA_identical_mp50
             COMMAND ${PROJECT_SOURCE_DIR}/tests/cli/mpi_identical.sh $<TARGET_FILE:dpref_cli> "2 3" --
                     dda run --params ${PROJECT_SOURCE_DIR}/examples/dda.json --precision mp50
                     --iterations 60 --optimum=false)
    set_tests_properties(DIST_AUDIT_identical DIST_AUDIT_identical_violation_counts DIST_ABORT_audit
                         DIST_ABORT_ev DIST_ABORT_control
                         DIST_EV_identical DIST_EV_identical_blocks DIST_EV_identical_mp50
                         DIST_EV_identical_grouped_slices DIST_EV_identical_projected_zero
                         DIST_DDA_identical DIST_DDA_identical_mp50
                         PROPERTIES LABELS mpi TIMEOUT 120 ENVIRONMENT "${DPREF_MPI_ENV}")
  endif()
endif()
dpref_test_sources(core_test ${CMAKE_CURRENT_SOURCE_DIR}/unit/distributed_test.cpp)
# DIST.EV, DIST.DDA on a fake multi-rank communicator (threads): no MPI needed. The fake ranks
# are threads sharing slots, mailboxes and a barrier, so the fast cases (< 1 s in Release) also
# run under ThreadSanitizer (label threads); the long DDA and mp50 cases only here.
dpref_add_test(distributed_runs_test LABELS unit
               TSAN_FILTER "DIST_COMM.*:DIST_EV.ThreadsInsideRanksKeepTheBits:DIST_EV.SlicesHoldOnlyTheirColumnsAndGiveTheSerialBits:DIST_EV.MakeProblemDrawsOnlyTheOwnedSpecs:DIST_EV.SliceMisuseIsRefused:DIST_DDA.SmallRunOnRanks"
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/distributed_runs_test.cpp)
