import express from "express";
import { describe, expect, test } from "vitest";
import { allRoutes } from "../../src/routes.ts";
import { mountRoutes } from "../../src/http/routes/mount.ts";
import { assertRouteDeclared, route } from "../../src/http/routes/route.ts";

const handler = async () => ({});

describe("the declared-scope guard", () => {
  test("an authenticated route with no scopes fails at start-up", () => {
    const bad = route({ method: "GET", path: "/api/v1/forgot", summary: "x", auth: { scopes: [] }, handler });
    expect(() => assertRouteDeclared(bad)).toThrow(/declares no scope check/);
    // mounting (what start-up does) refuses the whole list
    expect(() => mountRoutes(express.Router(), [bad], { settings: { namespace: "ext" } } as any)).toThrow(/GET \/api\/v1\/forgot/);
  });

  test("an auth object without a scopes key fails too (untyped declarations)", () => {
    const bad = { method: "POST", path: "/x", summary: "x", auth: { role: "admin" }, handler } as any;
    expect(() => assertRouteDeclared(bad)).toThrow(/declares no scope check/);
  });

  test("public routes and explicit any-token routes pass", () => {
    expect(() => assertRouteDeclared(route({ method: "GET", path: "/a", summary: "x", auth: "public", handler }))).not.toThrow();
    expect(() => assertRouteDeclared(route({ method: "GET", path: "/b", summary: "x", auth: { scopes: "any" }, handler }))).not.toThrow();
    expect(() => assertRouteDeclared(route({ method: "GET", path: "/c", summary: "x", auth: { scopes: ["read"] }, handler }))).not.toThrow();
  });

  test("every route the server ships is declared properly", () => {
    for (const r of allRoutes) expect(() => assertRouteDeclared(r)).not.toThrow();
  });
});
