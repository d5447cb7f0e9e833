// icat-auth: portal sign-in and sessions, a new user's set-up and password changes. Password
// hashing is slow on purpose, so this group has its own pool and cannot starve the reads of the others.
#include "queries.hpp"
#include "sessions.hpp"

int main(int argc, char** argv) {
  return icat::ServeGroup("auth", icat::auth::Routes(), icat::auth::kStatements, argc, argv);
}
