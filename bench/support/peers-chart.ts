/**
 * bench/peers.ts's picture: req/s per server on each route, and each server's start to first
 * answer, as a vega-lite chart rendered to SVG in Node (vega's headless view, no browser).
 */
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { ServerFigures } from "./peer-checks.js";

/** The vega-lite spec: pure, so what the chart shows is tested without rendering it. */
export function peersChartSpec(servers: ServerFigures[], title: string): TopLevelSpec {
  const order = servers.map((s) => s.server);
  const rates = servers.flatMap((s) =>
    Object.entries(s.routes).map(([route, { rps }]) => ({ server: s.server, route, rps: Math.round(rps) })),
  );
  const starts = servers.map((s) => ({ server: s.server, startMs: Math.round(s.startMs) }));
  const color = { field: "server", type: "nominal", sort: order, legend: null } as const;
  const routeOrder = [...new Set(rates.map((r) => r.route))];
  const server = { field: "server", type: "nominal", sort: order, title: null, axis: { labelLimit: 400 } } as const;
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title,
    background: "white",
    config: { font: "sans-serif", view: { stroke: null } },
    vconcat: [
      {
        data: { values: rates },
        title: "Requests a second (median of the rounds), 10 connections, per route",
        facet: {
          row: {
            field: "route",
            type: "nominal",
            sort: routeOrder,
            title: null,
            header: { labelAngle: 0, labelAlign: "left", labelAnchor: "start", labelOrient: "top", labelFontWeight: "bold" },
          },
        },
        spec: {
          width: 420,
          layer: [
            { mark: "bar", encoding: { y: server, x: { field: "rps", type: "quantitative", title: "req/s" }, color } },
            {
              mark: { type: "text", align: "left", dx: 3 },
              encoding: { y: server, x: { field: "rps", type: "quantitative" }, text: { field: "rps", type: "quantitative", format: "," } },
            },
          ],
        },
      },
      {
        data: { values: starts },
        title: "Start to first answer (median), ms",
        width: 420,
        layer: [
          { mark: "bar", encoding: { y: server, x: { field: "startMs", type: "quantitative", title: "ms" }, color } },
          {
            mark: { type: "text", align: "left", dx: 3 },
            encoding: {
              y: server,
              x: { field: "startMs", type: "quantitative" },
              text: { field: "startMs", type: "quantitative", format: "," },
            },
          },
        ],
      },
    ],
  } as TopLevelSpec;
}

/** The chart as an SVG document. */
export async function peersChartSvg(servers: ServerFigures[], title: string): Promise<string> {
  const view = new vega.View(vega.parse(compile(peersChartSpec(servers, title)).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
