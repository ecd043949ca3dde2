// The focus plan from the learner's energy (or classic Pomodoro). Pure.

export type FocusPlanKind = "energy" | "pomodoro";
export type EnergyBand = "low" | "medium" | "high";

export interface FocusPlan {
  readonly kind: FocusPlanKind;
  readonly band: EnergyBand;
  /** Minutes of focus before the first break nudge. */
  readonly focusMinutes: number;
  /** Suggested length of a short break. */
  readonly breakMinutes: number;
  /** Minutes of focus at which a nudge appears (each once). */
  readonly nudgeMinutes: readonly number[];
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

export const POMODORO = { focusMinutes: 25, breakMinutes: 5, longBreakMinutes: 15, longBreakEvery: 4 } as const;

export function focusPlanFor(kind: FocusPlanKind, energy: number): FocusPlan {
  const band = energyBand(energy);
  if (kind === "pomodoro") {
    const nudges = Array.from({ length: POMODORO.longBreakEvery }, (_, i) => (i + 1) * POMODORO.focusMinutes + i * POMODORO.breakMinutes);
    return {
      kind,
      band,
      focusMinutes: POMODORO.focusMinutes,
      breakMinutes: POMODORO.breakMinutes,
      nudgeMinutes: nudges,
      description: `Pomodoro: ${POMODORO.focusMinutes} min focus, ${POMODORO.breakMinutes} min break, a ${POMODORO.longBreakMinutes} min break after ${POMODORO.longBreakEvery}.`,
    };
  }
  const p = ENERGY_PLANS[band];
  return {
    kind,
    band,
    focusMinutes: p.first,
    breakMinutes: 5,
    nudgeMinutes: [p.first, p.second],
    description: `${band[0]!.toUpperCase()}${band.slice(1)} energy: a break nudge at ${p.first} and at ${p.second} minutes.`,
  };
}
