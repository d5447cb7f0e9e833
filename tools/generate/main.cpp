// icat-gen: every file made from the route tables and the service's other tables, read from the
// tables themselves (linked in), not from their source text. Run from the repository's top directory.
//
//   icat-gen                      writes every generated file that is committed (make gen)
//   icat-gen --check              fails, showing the difference, when one is not what it would write (make test)
//   icat-gen routes               one line per route: METHOD PATH GROUP ACCESS SCOPE FUNCTION QUERY ("-" when empty)
//   icat-gen openapi v1|api FILE  the served OpenAPI document made from its source FILE (docs/openapi.md)
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "outputs.hpp"
#include "routes.hpp"

namespace {

using namespace icat::gen;

struct Output {
  std::string file;
  std::string (*make)();
};

std::string ErrorPages() { return ReadText("nginx/error_pages.conf"); }
std::string FastcgiParams() { return ReadText("nginx/fastcgi_params"); }

// Each committed file icat-gen writes, and what makes it.
const std::vector<Output> kOutputs = {
    {"docs/routes.md", RoutesMd},
    {"nginx/icat.conf.in", NginxLocal},
    {"deploy/systemd/nginx-icat.conf", NginxSystemd},
    {"deploy/kubernetes/nginx/nginx.conf", NginxKubernetes},
    // Copies: kustomize reads files only below its directory.
    {"deploy/kubernetes/nginx/error_pages.conf", ErrorPages},
    {"deploy/kubernetes/nginx/fastcgi_params", FastcgiParams},
    {"README.md", Readme},
};

void WriteFile(const std::string& path, const std::string& text) {
  std::string temporary = path + ".tmp";
  std::ofstream file(temporary, std::ios::binary);
  file << text;
  file.close();
  if (!file || std::rename(temporary.c_str(), path.c_str()) != 0) throw GenError("cannot write " + path);
}

int WriteAll() {
  CheckNoOverlap();
  std::vector<std::string> texts;  // all made before any is written: a failure leaves every file as it was
  for (const Output& output : kOutputs) texts.push_back(output.make());
  for (size_t i = 0; i < kOutputs.size(); ++i) WriteFile(kOutputs[i].file, texts[i]);
  return 0;
}

// Shows the difference (diff -u, on stderr) between a file and what it should hold.
void ShowDifference(const std::string& path, const std::string& wanted) {
  char temporary[] = "/tmp/icat-gen.XXXXXX";
  int fd = mkstemp(temporary);
  if (fd < 0) throw GenError("cannot make a temporary file");
  close(fd);
  std::ofstream(temporary, std::ios::binary) << wanted;
  std::string command = "diff -u '" + path + "' '" + temporary + "' >&2";
  if (std::system(command.c_str()) == -1) std::cerr << "icat-gen: cannot run diff\n";
  std::remove(temporary);
}

int CheckAll() {
  CheckNoOverlap();
  int stale = 0;
  for (const Output& output : kOutputs) {
    std::string wanted = output.make();
    std::ifstream file(output.file, std::ios::binary);
    if (file && ReadText(output.file) == wanted) continue;
    ShowDifference(output.file, wanted);
    std::cerr << "icat-gen: " << output.file << " is not what the tables say; run make gen and commit it\n";
    stale = 1;
  }
  return stale;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) return WriteAll();
    if (args == std::vector<std::string>{"--check"}) return CheckAll();
    if (args == std::vector<std::string>{"routes"}) {
      std::cout << RouteLines();
      return 0;
    }
    if (args.size() == 3 && args[0] == "openapi") {
      std::cout << OpenApi(args[1], args[2]);
      return 0;
    }
  } catch (const std::exception& e) {
    std::cerr << "icat-gen: " << e.what() << "\n";
    return 1;
  }
  std::cerr << "usage: icat-gen [--check | routes | openapi v1|api FILE]\n";
  return 2;
}
