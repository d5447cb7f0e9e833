// /admission/decisions: what the admission webhook decided for each review it judged, newest first
// (GET /api/admission-decisions), filtered on the answer: the object, the verdict and mode, every
// image with its outcome, every broken rule, and which key (by its listed prefix) asked.
import { Link, useQuery } from "../router.jsx";
import { Empty, Page, Pager, Pending, SelectField, Table, When, usePagedList } from "../ui.jsx";
import { imagePath } from "../paths.js";

const kAllowedFilter = [
  ["", "Every decision"],
  ["false", "Denied"],
  ["true", "Allowed"],
];

const kOutcomeTone = { passed: "good", failed: "bad", exempt: "quiet", unchanged: "quiet" };

function TheObject({ decision }) {
  const where = [decision.namespace, decision.name].filter(Boolean).join("/");
  return (
    <>
      {decision.operation} {decision.kind}{" "}
      {decision.dryRun && <span class="badge quiet">dry run</span>}
      {where && (
        <div>
          <code>{where}</code>
        </div>
      )}
      <div class="muted">
        request <code>{decision.requestUid}</code>
      </div>
    </>
  );
}

function Verdict({ decision }) {
  return (
    <>
      {decision.allowed ? <span class="badge good">allowed</span> : <span class="badge bad">denied</span>}
      <div class="muted">mode {decision.mode}</div>
    </>
  );
}

function JudgedImages({ images }) {
  if (images.length === 0) return <span class="muted">none</span>;
  return (
    <ul class="plain">
      {images.map((image) => (
        <li key={image.reference}>
          <code>{image.reference}</code> <span class={"badge " + kOutcomeTone[image.outcome]}>{image.outcome}</span>
          {image.normalised && image.normalised !== image.reference && (
            <div class="muted">
              as <code>{image.normalised}</code>
            </div>
          )}
          <div class="muted">in {image.containers.join(", ")}</div>
          {image.imageId && (
            <div>
              <Link href={imagePath(image.imageId)}>catalogue image</Link>
              {image.versionId && (
                <span class="muted">
                  , version <code>{image.versionId}</code>
                </span>
              )}
            </div>
          )}
          {image.exemptBy && <div>exempt by {image.exemptBy}</div>}
          {image.exceptedCves?.length > 0 && <div>exceptions lifted {image.exceptedCves.join(", ")}</div>}
          {image.exceptedRules?.length > 0 && <div>exceptions lifted the rule {image.exceptedRules.join(", ")}</div>}
        </li>
      ))}
    </ul>
  );
}

function Reasons({ reasons }) {
  if (reasons.length === 0) return <span class="muted">none</span>;
  return (
    <ul class="plain">
      {reasons.map((reason, index) => (
        <li key={index}>
          <strong>{reason.rule}</strong> on <code>{reason.image}</code>: {reason.message}
        </li>
      ))}
    </ul>
  );
}

function DecisionList({ allowed }) {
  const list = usePagedList("/api/admission-decisions", { allowed });
  const { pages } = list;
  if (!list.data) return <Pending state={list} what="Loading the decisions" />;
  const { decisions, nextCursor } = list.data;
  if (decisions.length === 0 && pages.page === 1) {
    return <Empty>No decisions{allowed ? " of this kind" : ""} yet: they appear once a cluster's webhook sends reviews.</Empty>;
  }
  return (
    <>
      <Table caption="Admission decisions, newest first">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Object</th>
            <th scope="col">Decision</th>
            <th scope="col">Images</th>
            <th scope="col">Reasons</th>
            <th scope="col">Key</th>
          </tr>
        </thead>
        <tbody>
          {decisions.map((decision) => (
            <tr key={decision.id}>
              <th scope="row" class="nowrap">
                <When at={decision.createdAt} />
              </th>
              <td class="wide">
                <TheObject decision={decision} />
              </td>
              <td>
                <Verdict decision={decision} />
              </td>
              <td class="wide">
                <JudgedImages images={decision.images} />
              </td>
              <td class="wide">
                <Reasons reasons={decision.reasons} />
              </td>
              <td class="nowrap">{decision.keyPrefix ? <code>{decision.keyPrefix}</code> : <span class="muted">not recorded</span>}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Pager pages={pages} nextCursor={nextCursor} label="Pages of decisions" />
    </>
  );
}

export default function AdmissionDecisions() {
  const [query, setQuery] = useQuery();
  const allowed = query.allowed === "true" || query.allowed === "false" ? query.allowed : "";
  return (
    <Page title="Admission decisions" actions={<Link href="/admission">Admission policy</Link>}>
      <p>Every review the admission webhook judged, with the key (by its listed prefix) that sent it.</p>
      <div class="filters">
        <SelectField label="Show" value={allowed} options={kAllowedFilter} onChange={(value) => setQuery({ allowed: value })} />
      </div>
      <DecisionList key={allowed} allowed={allowed} />
    </Page>
  );
}
