// icat-account: what a tenant manages in the portal: API keys, CVE watches, feature requests,
// webhook subscriptions and their delivery logs, the admission policy and decisions, the audit log
// and the tenant's users.
#include "account.hpp"
#include "queries.hpp"

int main(int argc, char** argv) {
  using icat::Access;
  namespace a = icat::account;
  static const std::vector<icat::Route> routes = {
      {"GET", "/api/api-keys", Access::kPortalAdmin, "", "limit,cursor", a::ListApiKeys},
      {"POST", "/api/api-keys", Access::kPortalAdmin, "", "", a::CreateApiKey, true},
      {"DELETE", "/api/api-keys/{id}", Access::kPortalAdmin, "", "", a::RevokeApiKey},
      {"GET", "/api/cve-watches", Access::kPortal, "", "limit,cursor", a::ListCveWatches},
      {"POST", "/api/cve-watches", Access::kPortalAdmin, "", "", a::CreateCveWatch, true},
      {"DELETE", "/api/cve-watches/{id}", Access::kPortalAdmin, "", "", a::DeleteCveWatch},
      {"GET", "/api/feature-requests", Access::kPortal, "", "status,type,limit,cursor", a::ListFeatureRequests},
      {"POST", "/api/feature-requests", Access::kPortalAdmin, "", "", a::CreateFeatureRequest, true},
      {"GET", "/api/webhooks", Access::kPortal, "", "limit,cursor", a::ListWebhooks},
      {"POST", "/api/webhooks", Access::kPortalAdmin, "", "", a::UpsertWebhook, true},
      {"PUT", "/api/webhooks/{id}", Access::kPortalAdmin, "", "", a::UpdateWebhook, true},
      {"DELETE", "/api/webhooks/{id}", Access::kPortalAdmin, "", "", a::DeleteWebhook},
      {"GET", "/api/webhooks/{id}/deliveries", Access::kPortal, "", "state,limit,cursor", a::ListWebhookDeliveries},
      // No has_body: a ping takes no input, so an empty POST needs no Content-Type (the handler
      // accepts {} too and refuses any other body).
      {"POST", "/api/webhooks/{id}/ping", Access::kPortalAdmin, "", "", a::PingWebhook},
      {"GET", "/api/admission-policy", Access::kPortal, "", "", a::GetAdmissionPolicy},
      {"PUT", "/api/admission-policy", Access::kPortalAdmin, "", "", a::PutAdmissionPolicy, true},
      {"GET", "/api/admission-decisions", Access::kPortal, "", "allowed,limit,cursor", a::ListAdmissionDecisions},
      {"GET", "/api/audit-log", Access::kPortalAdmin, "", "action,limit,cursor", a::ListAuditLog},
      {"GET", "/api/users", Access::kPortalAdmin, "", "limit,cursor", a::ListUsers},
      {"POST", "/api/users", Access::kPortalAdmin, "", "", a::CreateUser, true},
      {"PUT", "/api/users/{id}", Access::kPortalAdmin, "", "", a::UpdateUser, true},
      {"DELETE", "/api/users/{id}", Access::kPortalAdmin, "", "", a::DeleteUser},
      // No has_body, like ping: a new set-up token takes no input.
      {"POST", "/api/users/{id}/setup-token", Access::kPortalAdmin, "", "", a::IssueSetupToken},
  };
  return icat::ServeGroup("account", routes, icat::account::kStatements, argc, argv);
}
