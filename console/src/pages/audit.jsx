// Placeholder until the page is written.
import { Page } from "../ui.jsx";

export default function Placeholder() {
  return <Page title="audit"><p>Coming.</p></Page>;
}
