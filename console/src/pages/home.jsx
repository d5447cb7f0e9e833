// "/": the catalogue is where people start.
import { useEffect } from "preact/hooks";
import { navigate } from "../router.jsx";

export default function Home() {
  useEffect(() => navigate("/images", { replace: true }), []);
  return null;
}
