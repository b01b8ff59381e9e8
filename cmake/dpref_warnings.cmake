function(dpref_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wno-sign-conversion)
  if(DPREF_WERROR)
    # GCC 12 reports maybe-uninitialized false positives inside Boost.Multiprecision cpp_int.
    target_compile_options(${target} PRIVATE -Werror -Wno-error=maybe-uninitialized)
  endif()
endfunction()

if(DPREF_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

option(DPREF_TSAN "Build with ThreadSanitizer (threaded tests only)" OFF)
if(DPREF_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()
