// Runs a helper program (a study's plotting script) without a shell: posix_spawnp with an
// argument vector, so no path or file name is ever interpreted by /bin/sh (spec/architecture.md
// ARCH.CLI). Generic: any command can use it.
#pragma once

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace dpref::cli {

/// Refuses a program that cannot be executed (checked BEFORE the expensive part).
/// @throws std::invalid_argument naming the flag and the path
inline void check_executable(const std::string& path, const std::string& flag) {
  if (path.find('/') != std::string::npos ? ::access(path.c_str(), X_OK) != 0 : path.empty())
    throw std::invalid_argument(flag + " must name an executable program, got '" + path + "'");
}

/// Refuses a file that cannot be read. @throws std::invalid_argument naming the flag
inline void check_readable(const std::string& path, const std::string& flag) {
  if (path.empty() || ::access(path.c_str(), R_OK) != 0)
    throw std::invalid_argument(flag + " must name a readable file, got '" + path + "'");
}

/// Runs argv[0] (found through PATH when it has no '/') with argv and waits for it.
/// @throws std::runtime_error naming the program if it cannot start or exits non-zero
inline void run_program(const std::vector<std::string>& argv, const std::string& who) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (rc != 0)
    throw std::runtime_error(who + ": cannot start '" + argv[0] + "': " + std::strerror(rc));
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(who + ": waitpid failed");
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    std::string cmd;
    for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
    throw std::runtime_error(who + ": plotting failed: " + cmd +
                             " (is python3-matplotlib installed?)");
  }
}

}  // namespace dpref::cli
