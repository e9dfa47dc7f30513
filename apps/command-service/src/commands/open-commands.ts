/**
 * How statements pick out open commands (pending or sent). Two spellings of the same rows, because the planner
 * treats them differently.
 */

/**
 * The predicate of the partial indexes over open commands (`commands_open_*`): a statement that looks for open
 * commands by lane or by due time says this, so that those indexes can answer it.
 */
export const OPEN = `status IN ('pending', 'sent')`;

/**
 * The same rows (CHECK `commands_completed_when_terminal`), for statements that look commands up by uuid: this does
 * not match the partial indexes' predicate, so the lookup can only go through the primary key. Statistics taken
 * while no command was open make those indexes look empty; a statement saying OPEN then scanned one of them whole
 * for every uuid it looked up, which grows with the backlog (1,000 commands/s offered after 1,000,000 ended ones:
 * 994 terminal/s fell to 334, with the batch statements and claims taking 0.3–1.4 s).
 */
export const OPEN_BY_UUID = `completed_at IS NULL`;
