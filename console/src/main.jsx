// The console's entry: styles, then the application into #app.
import "uplot/dist/uPlot.min.css";
import "./style.css";
import { render } from "preact";
import { App } from "./app.jsx";

render(<App />, document.getElementById("app"));
