// icat-account: what a tenant manages in the portal: API keys, CVE watches, feature requests,
// webhook subscriptions and their delivery logs, the admission policy and decisions, the audit log
// and the tenant's users.
#include "account.hpp"
#include "queries.hpp"

int main(int argc, char** argv) {
  return icat::ServeGroup("account", icat::account::Routes(), icat::account::kStatements, argc, argv);
}
