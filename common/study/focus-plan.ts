// The focus plan from the learner's energy (or classic Pomodoro). Pure, shared with the browser.
//
// Every plan is one repeating rule, counted in minutes of focus (paused time does not count):
// a break nudge every `focusMinutes`, and every `longBreakEvery`-th nudge suggests a longer break.
// Energy plans (issue 5): high 25/50, medium 20/40, low 15/30 (a short break at the first mark, a
// longer one at the second, then the same again). Pomodoro: 25/5, a 15 min break after every 4th.

export type FocusPlanKind = "energy" | "pomodoro";
export type EnergyBand = "low" | "medium" | "high";

export const FOCUS_PLAN_KINDS = ["energy", "pomodoro"] as const satisfies readonly FocusPlanKind[];

export interface BreakSchedule {
  /** Minutes of focus between two break nudges. */
  readonly focusMinutes: number;
  /** Suggested length of a short break, in minutes. */
  readonly breakMinutes: number;
  /** Suggested length of a longer break, in minutes. */
  readonly longBreakMinutes: number;
  /** Every n-th nudge suggests the longer break. */
  readonly longBreakEvery: number;
}

export interface FocusPlan extends BreakSchedule {
  readonly kind: FocusPlanKind;
  readonly band: EnergyBand;
  /** The first nudges of the plan, in minutes of focus (each shown once), e.g. [15, 30]. */
  readonly nudgeMinutes: readonly number[];
  /** "Low-energy plan", "Pomodoro". */
  readonly label: string;
  readonly description: string;
}

/** Low below 4, high from 7. */
export function energyBand(energy: number): EnergyBand {
  if (energy < 4) return "low";
  if (energy >= 7) return "high";
  return "medium";
}

const ENERGY_PLANS: Record<EnergyBand, { first: number; second: number }> = {
  high: { first: 25, second: 50 },
  medium: { first: 20, second: 40 },
  low: { first: 15, second: 30 },
};

/** Break lengths in minutes for the energy plans: short at the first mark, longer at the second. */
const ENERGY_BREAKS = { short: 5, long: 10 } as const;

export const POMODORO = { focusMinutes: 25, breakMinutes: 5, longBreakMinutes: 15, longBreakEvery: 4 } as const;

export function focusPlanFor(kind: FocusPlanKind, energy: number): FocusPlan {
  const band = energyBand(energy);
  if (kind === "pomodoro") {
    return {
      kind,
      band,
      ...POMODORO,
      nudgeMinutes: Array.from({ length: POMODORO.longBreakEvery }, (_, i) => (i + 1) * POMODORO.focusMinutes),
      label: "Pomodoro",
      description: `${POMODORO.focusMinutes} min of focus, then a ${POMODORO.breakMinutes} min break; a ${POMODORO.longBreakMinutes} min break after every ${ordinal(POMODORO.longBreakEvery)} round.`,
    };
  }
  const p = ENERGY_PLANS[band];
  return {
    kind,
    band,
    focusMinutes: p.first,
    breakMinutes: ENERGY_BREAKS.short,
    longBreakMinutes: ENERGY_BREAKS.long,
    longBreakEvery: p.second / p.first,
    nudgeMinutes: [p.first, p.second],
    label: `${capitalise(band)}-energy plan`,
    description: `A ${ENERGY_BREAKS.short} min break nudge at ${p.first} min of focus and a ${ENERGY_BREAKS.long} min one at ${p.second} min, then the same again.`,
  };
}

/**
 * The schedule a stored session runs on: its own stored minutes (so a later change to the plans
 * above does not rewrite old sessions), the long-break rule from its kind.
 */
export function scheduleOf(row: { focusPlan: string; focusMinutes: number; breakMinutes: number }): BreakSchedule {
  if (row.focusPlan === "pomodoro") {
    return {
      focusMinutes: row.focusMinutes,
      breakMinutes: row.breakMinutes,
      longBreakMinutes: POMODORO.longBreakMinutes,
      longBreakEvery: POMODORO.longBreakEvery,
    };
  }
  return { focusMinutes: row.focusMinutes, breakMinutes: row.breakMinutes, longBreakMinutes: ENERGY_BREAKS.long, longBreakEvery: 2 };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function ordinal(n: number): string {
  return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}
