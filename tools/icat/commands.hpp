// icat's commands: each reads its parsed arguments and the environment, prints its result on stdout
// and returns the exit status; errors are thrown as Failure (exit 2).
#pragma once

#include "api.hpp"
#include "icat/cli_args.hpp"

namespace icat::client {

int Images(const Args& args, const GetEnvFn& getenv);
int Sbom(const Args& args, const GetEnvFn& getenv);
int Vulns(const Args& args, const GetEnvFn& getenv);
int Cve(const Args& args, const GetEnvFn& getenv);
int Vex(const Args& args, const GetEnvFn& getenv);
int Check(const Args& args, const GetEnvFn& getenv);
int Verify(const Args& args, const GetEnvFn& getenv);
int Diff(const Args& args, const GetEnvFn& getenv);

// Writes bytes to path atomically: a temp file beside it, fsync, rename, fsync of the directory.
// Nothing is left at path (nor a temp file) when any step fails; Failure says which.
void WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace icat::client
