// A version's scan history: the vulnerabilities of each scan by severity, drawn over time with uPlot
// and given again as a table, which is what a screen reader reads (the canvas says nothing to it).
// uPlot styles its elements through the CSSOM, which the CSP's style-src 'self' allows.
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import { getAllPages } from "../../api.js";
import { Empty, Pending, When, useLoad, Table } from "../../ui.jsx";
import { kSeverities } from "../../vocabulary.js";

const kChartHeight = 260;
// Besides colour, a dash pattern per severity tells the lines apart.
const kDashes = { critical: [], high: [8, 4], medium: [2, 3], low: [12, 3, 2, 3], unknown: [1, 6] };

export function ScanHistory({ imageId, version }) {
  const path = `/api/docker-images/${encodeURIComponent(imageId)}/versions/${encodeURIComponent(version.id)}/scan-history`;
  const state = useLoad(() => getAllPages(path, {}, "points"), [path]);
  if (!state.data) return <Pending state={state} what="Loading the scan history" />;
  const points = state.data.items;
  if (points.length === 0) return <Empty>This version has not been scanned yet.</Empty>;
  return (
    <>
      {/* The chart scrolls sideways on a small screen: it takes the keyboard's focus, named by its caption. */}
      <figure class="chart" tabIndex={0}>
        <ScanChart points={points} />
        <figcaption>
          Vulnerabilities of {version.tag} by severity at each of its {points.length} scans; the table below gives the same
          figures.
        </figcaption>
      </figure>
      <HistoryTable points={points} tag={version.tag} />
    </>
  );
}

// The severities' colours are the stylesheet's, so chart and badges agree.
function severitySeries() {
  const style = getComputedStyle(document.documentElement);
  return kSeverities.map((level) => ({
    label: level,
    stroke: style.getPropertyValue("--" + level).trim(),
    width: 2,
    dash: kDashes[level],
    points: { show: true, size: 7 },
  }));
}

function ScanChart({ points }) {
  const box = useRef(null);
  useEffect(() => {
    const element = box.current;
    const data = [points.map((point) => Date.parse(point.scannedAt) / 1000), ...kSeverities.map((level) => points.map((point) => point.vulnerabilityCounts[level]))];
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: kChartHeight,
        scales: { x: { time: true }, y: { range: (self, min, max) => [0, Math.max(1, max)] } },
        series: [{ label: "Scanned" }, ...severitySeries()],
        // Counts are whole numbers: no tick between them.
        axes: [{}, { label: "Vulnerabilities", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] }],
      },
      data,
      element,
    );
    // Follows the page's width; only a change of width redraws (the height is fixed).
    let width = element.clientWidth;
    const resize = new ResizeObserver(() => {
      if (element.clientWidth !== width) {
        width = element.clientWidth;
        plot.setSize({ width, height: kChartHeight });
      }
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points]);
  return <div ref={box} class="chart-canvas" aria-hidden="true" />;
}

function HistoryTable({ points, tag }) {
  return (
    <Table caption={`Scans of ${tag}, oldest first`} showCaption>
        <thead>
          <tr>
            <th scope="col">Scanned</th>
            <th scope="col">Scanner</th>
            <th scope="col">Vulnerability database</th>
            {kSeverities.map((level) => (
              <th scope="col" key={level} class="cap">
                {level}
              </th>
            ))}
            <th scope="col">With a fix</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.scanId}>
              <th scope="row">
                <When at={point.scannedAt} />
              </th>
              <td>
                {point.scanner} {point.scannerVersion || ""}
              </td>
              <td>
                <When at={point.vulnDbUpdatedAt} empty="not reported" />
              </td>
              {kSeverities.map((level) => (
                <td key={level} class="num">
                  {point.vulnerabilityCounts[level]}
                </td>
              ))}
              <td class="num">{point.fixableCount}</td>
            </tr>
          ))}
        </tbody>
      </Table>
  );
}
