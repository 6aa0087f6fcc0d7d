import { describe, expect, it } from "vitest";
import { DomainError, conflict } from "#server/domain/errors.ts";
import { stateMachine } from "#server/domain/state-machine.ts";

const door = stateMachine({
  states: ["shut", "open", "locked"],
  roles: ["owner", "guest"],
  table: [
    { action: "open", from: ["shut"], to: "open", by: ["owner", "guest"] },
    { action: "open", from: ["open"], to: null, by: ["owner", "guest"], repeat: true },
    { action: "shut", from: ["open"], to: "shut", by: ["owner", "guest"] },
    { action: "lock", from: ["shut"], to: "locked", by: ["owner"] },
    { action: "unlock", from: ["locked"], to: "shut", by: ["owner"] },
  ],
});

describe("state machines as data", () => {
  it("answers who may do what from where, leaving repeats out of what is offered and of the guards", () => {
    expect(door.actions).toEqual(["open", "shut", "lock", "unlock"]);
    expect(door.canTransition("lock", "shut", "guest")).toBe(false);
    expect(door.canTransition("open", "open", "guest")).toBe(true);
    expect(door.actionsFor("open", "guest")).toEqual(["shut"]);
    expect(door.actionsFor("shut", "owner")).toEqual(["open", "lock"]);
    expect(door.fromStates("open")).toEqual(["shut"]);
    expect(door.target("unlock", "locked")).toBe("shut");
    expect(door.target("open", "open")).toBe("open");
    expect(door.statesLeadingTo("shut")).toEqual(["shut", "open", "locked"]);
    expect(door.statesLeadingTo("unlock")).toEqual(["shut", "open", "locked"]);
  });

  it("refuses with the area's error for the state, forbidden for the role", () => {
    const refuse = () => conflict("pickups.not_assigned");
    expect(() => door.assertTransition("unlock", "open", "owner", refuse)).toThrow(
      expect.objectContaining({ kind: "conflict", code: "pickups.not_assigned", message: "pickups:errors.notAssigned" }),
    );
    expect(() => door.assertTransition("lock", "shut", "guest", refuse)).toThrow(DomainError);
    expect(() => door.assertTransition("lock", "shut", "guest", refuse)).toThrow(expect.objectContaining({ kind: "forbidden" }));
    expect(door.assertTransition("lock", "shut", "owner", refuse).to).toBe("locked");
  });

  it("a table with two rows for one action from one state is refused when it is built", () => {
    expect(() =>
      stateMachine({
        states: ["a", "b"],
        roles: ["x"],
        table: [
          { action: "go", from: ["a"], to: "b", by: ["x"] },
          { action: "go", from: ["a", "b"], to: null, by: ["x"] },
        ],
      }),
    ).toThrow('"go" has two rows from "a"');
  });
});
