import {
  type ChargingProfileParameters,
  type ChargingProfilePurpose,
  type ChargingScheduleParameters,
  compact,
} from './command-parameters.js';

const PROFILE_KIND = { absolute: 'Absolute', recurring: 'Recurring', relative: 'Relative' } as const;
const RECURRENCY_KIND = { daily: 'Daily', weekly: 'Weekly' } as const;

/**
 * The charging profile fields 1.6 `ChargingProfile` and 2.0.1 `ChargingProfileType` spell alike. The id, the
 * transaction id and the schedule's shape differ and are added by each protocol's builder.
 */
export function commonProfileFields(
  profile: ChargingProfileParameters,
  purposeNames: Readonly<Record<ChargingProfilePurpose, string>>,
): Record<string, unknown> {
  return compact({
    stackLevel: profile.stack_level,
    chargingProfilePurpose: purposeNames[profile.purpose],
    chargingProfileKind: PROFILE_KIND[profile.kind],
    recurrencyKind: profile.recurrency_kind && RECURRENCY_KIND[profile.recurrency_kind],
    validFrom: profile.valid_from,
    validTo: profile.valid_to,
  });
}

/** The charging schedule fields both protocols spell alike (2.0.1 adds a schedule `id`). */
export function commonScheduleFields(schedule: ChargingScheduleParameters): Record<string, unknown> {
  return compact({
    startSchedule: schedule.start_schedule,
    duration: schedule.duration,
    chargingRateUnit: schedule.charging_rate_unit,
    chargingSchedulePeriod: schedule.periods.map((period) =>
      compact({ startPeriod: period.start_period, limit: period.limit, numberPhases: period.number_phases }),
    ),
    minChargingRate: schedule.min_charging_rate,
  });
}
