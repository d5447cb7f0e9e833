// Each console path (console/routes.json, which nginx reads too) and its page. `open`: reachable
// without signing in. `adminOnly`: the API answers these only for admins, so the page says why
// it is closed instead of showing a refusal.
import paths from "../routes.json";
import Account from "./pages/account.jsx";
import AdmissionDecisions from "./pages/admission_decisions.jsx";
import AdmissionPolicy from "./pages/admission_policy.jsx";
import Audit from "./pages/audit.jsx";
import Compare from "./pages/compare.jsx";
import Cve from "./pages/cve.jsx";
import Home from "./pages/home.jsx";
import ImageDetail from "./pages/image_detail.jsx";
import Images from "./pages/images.jsx";
import Keys from "./pages/keys.jsx";
import NotificationChannelDetail from "./pages/notification_channel_detail.jsx";
import NotificationChannels from "./pages/notification_channels.jsx";
import { ConfirmAddress, Unsubscribe } from "./pages/notification_links.jsx";
import Packages from "./pages/packages.jsx";
import Requests from "./pages/requests.jsx";
import Setup from "./pages/setup.jsx";
import SignIn from "./pages/sign_in.jsx";
import Sso from "./pages/sso.jsx";
import Users from "./pages/users.jsx";
import Watches from "./pages/watches.jsx";
import WebhookDetail from "./pages/webhook_detail.jsx";
import Webhooks from "./pages/webhooks.jsx";

export const kRoutes = [
  { path: "/", page: Home },
  { path: "/sign-in", page: SignIn, open: true },
  { path: "/setup", page: Setup, open: true },
  { path: "/images", page: Images, nav: "Images" },
  { path: "/images/:id", page: ImageDetail },
  { path: "/images/:id/compare", page: Compare },
  { path: "/cve", page: Cve, nav: "CVE look-up" },
  { path: "/cve/:cveId", page: Cve },
  { path: "/packages", page: Packages, nav: "Package look-up" },
  { path: "/watches", page: Watches, nav: "CVE watches" },
  { path: "/keys", page: Keys, nav: "API keys", adminOnly: "the tenant's API keys" },
  { path: "/webhooks", page: Webhooks, nav: "Webhooks" },
  { path: "/webhooks/:id", page: WebhookDetail },
  { path: "/notifications", page: NotificationChannels, nav: "Notifications", adminOnly: "the tenant's notification channels" },
  { path: "/notifications/:id", page: NotificationChannelDetail, adminOnly: "the tenant's notification channels" },
  { path: "/notifications/confirm/:token", page: ConfirmAddress, open: true },
  { path: "/notifications/unsubscribe/:token", page: Unsubscribe, open: true },
  { path: "/requests", page: Requests, nav: "Requests" },
  { path: "/admission", page: AdmissionPolicy, nav: "Admission" },
  { path: "/admission/decisions", page: AdmissionDecisions },
  { path: "/audit", page: Audit, nav: "Audit log", adminOnly: "the audit log" },
  { path: "/users", page: Users, nav: "Users", adminOnly: "the tenant's users" },
  { path: "/sso", page: Sso, nav: "Single sign-on", adminOnly: "the tenant's single sign-on" },
  { path: "/account", page: Account },
];

// The two lists must name the same paths: nginx serves exactly these.
const routed = kRoutes.map((route) => route.path).sort().join(" ");
if (routed !== [...paths.paths].sort().join(" ")) throw new Error("console/routes.json and src/routes.js disagree");
