dpref_add_test(accel_audit LABELS audit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/audit/accel_audit.cpp
                                               ${CMAKE_CURRENT_SOURCE_DIR}/audit/priv_accel_audit.cpp)
# PRIV.ACCEL.AUDIT (spec/privacy_bounds.md): the public l1 bound B — a record above it is refused;
# one step of the shipped release passes at its certified ε on the tightest admitted pair, and the
# same engine with the bound not enforced (a record at 100B admitted) is flagged (idealised and
# secure).
