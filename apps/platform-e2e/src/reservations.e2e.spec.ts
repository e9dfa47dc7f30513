import { randomUUID } from 'node:crypto';
import type { ControllerView, PlugView } from '@cpc/contracts';
import type { CommandParameters, components, operations, PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  eventually,
  onlineChargePoint,
  OpenApiResponseValidator,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
  walkCursorPages,
} from '@cpc/testing';
import { createdCommand, endedCommand, sdkTestUser } from './support/sdk-test-client.js';

type Reservation = components['schemas']['ReservationBody'];
type ReservationsQuery = NonNullable<operations['listReservations']['parameters']['query']>;
/** A reserve's parameters, `expires_at` defaulting to an hour from now. */
type ReserveParameters = Omit<CommandParameters<'reserve'>, 'expires_at'> & { expires_at?: string };

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Reservations made by reserve commands on real, strict ocpp-rpc charge points (1.6 and 2.0.1), followed through what
 * the charge points report: a transaction that uses one, a cancel_reservation, the expiry, a 2.0.1
 * ReservationStatusUpdate. Read through `/api/v1/control/reservations` with the typed SDK (libs/sdk), every response
 * checked against the served OpenAPI document.
 */
describe('reservations', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let token: string;
  let data: AssetsTestData;
  /** acme's operator (assets and control), by the SDK. */
  let operator: PlatformClient;
  /** Another tenant's operator, and a user of this tenant without the reservations permissions. */
  let otherTenant: PlatformClient;
  let withoutPermission: PlatformClient;

  const reservationsOf = (
    controller: ControllerView,
    query: ReservationsQuery = {},
    as: PlatformClient = operator,
  ) =>
    as.api.GET('/api/v1/control/reservations', {
      params: { query: { 'filter[controller_uuid]': controller.uuid, ...query } },
    });

  const readReservation = (uuid: string, as: PlatformClient = operator) =>
    as.api.GET('/api/v1/control/reservations/{uuid}', { params: { path: { uuid } } });

  /** The reservation of a reserve command, once command-service has it in the state `accept` wants. */
  const reservationOf = (
    commandUuid: string,
    controller: ControllerView,
    accept = (_: Reservation) => true,
  ) =>
    eventually(
      async () =>
        (await reservationsOf(controller, { limit: 50 })).data!.reservations.find(
          (reservation) => reservation.reserve_command_uuid === commandUuid,
        ),
      (reservation) => reservation !== undefined && accept(reservation),
    ) as Promise<Reservation>;

  async function connected(protocol: 'ocpp1.6' | 'ocpp2.0.1') {
    const { controller, plugs } = await data.site(2);
    const cp = await onlineChargePoint({
      ocppUrl: platform.ocppUrl,
      api,
      token: token,
      controller,
      protocol,
    });
    return { controller, plugs, cp };
  }

  const reserve = async (controller: ControllerView, parameters: ReserveParameters, plug?: PlugView) => {
    const command = await createdCommand(operator, {
      type: 'reserve',
      target_type: plug ? 'connector' : 'controller',
      target_uuid: plug ? plug.uuid : controller.uuid,
      parameters: { expires_at: inAnHour(), ...parameters },
    });
    return endedCommand(operator, command.command_uuid);
  };

  beforeAll(async () => {
    platform = await startPlatformUnderTest();
    api = await ApiTestClient.connect(platform.apiUrl);
    ({ operator: token } = await tenantWithUsers(platform, api, 'acme', {
      operator: 'asset,control',
      commandsOnly: 'asset,control:commands',
    }));
    await tenantWithUsers(platform, api, 'other', { operator: 'control' });
    data = new AssetsTestData(api, token);
    const validator = await OpenApiResponseValidator.fetch(platform.apiUrl);
    operator = await sdkTestUser(platform.apiUrl, 'acme', 'operator', validator);
    withoutPermission = await sdkTestUser(platform.apiUrl, 'acme', 'commandsOnly', validator);
    otherTenant = await sdkTestUser(platform.apiUrl, 'other', 'operator', validator);
  }, 240_000);

  afterAll(() => platform?.stop());

  describe('ocpp1.6', () => {
    let controller: ControllerView;
    let plugs: PlugView[];
    let cp: ChargePoint;
    const reservationAnswers: string[] = [];

    beforeAll(async () => {
      ({ controller, plugs, cp } = await connected('ocpp1.6'));
      cp.handle('ReserveNow', () => ({ status: reservationAnswers.shift() ?? 'Accepted' }));
      cp.handle('CancelReservation', () => ({ status: 'Accepted' }));
    });

    afterAll(() => cp?.close({ force: true }));

    it('an accepted reserve is an active reservation; a transaction with its id uses it up', async () => {
      const command = await reserve(controller, { id_tag: 'RFID-A', reservation_id: 11 }, plugs[0]);
      expect(command.status).toBe('accepted');
      const active = await reservationOf(command.command_uuid, controller);
      expect(active).toMatchObject({
        controller_uuid: controller.uuid,
        plug_uuid: plugs[0].uuid,
        connector_id: 1,
        reservation_id: 11,
        id_tag: 'RFID-A',
        status: 'active',
      });
      for (const unset of ['ended_at', 'charging_session_uuid', 'cancel_command_uuid'])
        expect(active).not.toHaveProperty(unset);
      const read = await readReservation(active.uuid);
      expect(read.response.status).toBe(200);
      expect(read.data).toEqual({ reservation: active });

      const startedAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const { transactionId } = (await cp.call('StartTransaction', {
        connectorId: 1,
        idTag: 'RFID-A',
        meterStart: 0,
        timestamp: startedAt,
        reservationId: 11,
      })) as { transactionId: number };
      const used = await reservationOf(command.command_uuid, controller, (found) => found.status === 'used');
      const sessions = await operator.api.GET('/api/v1/control/charging-sessions', {
        params: {
          query: {
            'filter[ocpp_transaction_id]': String(transactionId),
            'filter[controller_uuid]': controller.uuid,
          },
        },
      });
      expect(used).toMatchObject({
        ended_at: startedAt,
        charging_session_uuid: sessions.data!.charging_sessions[0].uuid,
      });
    });

    it('cancel_reservation ends the reservation it names; a refused reserve makes none', async () => {
      const command = await reserve(controller, { id_tag: 'RFID-B' });
      expect(command.status).toBe('accepted');
      const active = await reservationOf(command.command_uuid, controller);
      expect(active).toMatchObject({ status: 'active' });
      for (const unset of ['plug_uuid', 'connector_id']) expect(active).not.toHaveProperty(unset);
      const cancel = await createdCommand(operator, {
        type: 'cancel_reservation',
        target_type: 'controller',
        target_uuid: controller.uuid,
        parameters: { reservation_id: active.reservation_id },
      });
      expect((await endedCommand(operator, cancel.command_uuid)).status).toBe('accepted');
      const cancelled = await reservationOf(
        command.command_uuid,
        controller,
        (found) => found.status === 'cancelled',
      );
      expect(cancelled.cancel_command_uuid).toBe(cancel.command_uuid);
      expect(cancelled.ended_at).toEqual(expect.any(String));

      reservationAnswers.push('Occupied');
      const refused = await reserve(controller, { id_tag: 'RFID-C' }, plugs[1]);
      expect([refused.status, refused.result?.status]).toEqual(['rejected', 'Occupied']);
      // Its own answer came after the cancel's: once the cancel is seen, a reservation of the refusal would be too.
      const all = (await reservationsOf(controller, { limit: 50 })).data!.reservations;
      expect(all.some((reservation) => reservation.reserve_command_uuid === refused.command_uuid)).toBe(
        false,
      );
    });

    it('a reserve with the same id replaces the active one; an expiry that passed reads as expired', async () => {
      const first = await reserve(controller, { id_tag: 'RFID-D', reservation_id: 31 });
      await reservationOf(first.command_uuid, controller);
      const second = await reserve(controller, { id_tag: 'RFID-E', reservation_id: 31 });
      await reservationOf(second.command_uuid, controller);
      expect(
        await reservationOf(first.command_uuid, controller, (found) => found.status === 'replaced'),
      ).toBeTruthy();

      const soon = new Date(Date.now() + 2_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const brief = await reserve(controller, { id_tag: 'RFID-F', reservation_id: 32, expires_at: soon });
      expect(brief.status).toBe('accepted');
      const expired = await reservationOf(
        brief.command_uuid,
        controller,
        (found) => found.status === 'expired',
      );
      expect(expired.ended_at).toBe(expired.expires_at);
      const byStatus = await reservationsOf(controller, { 'filter[status]': 'expired' });
      expect(byStatus.data!.reservations.map((reservation) => reservation.uuid)).toEqual([expired.uuid]);
    });

    it('pages and filters; another tenant gets 404, a caller without the permission 403', async () => {
      const page = await reservationsOf(controller, { limit: 2, page: 2 });
      expect(page.response.status).toBe(200);
      expect(page.data!.pagination).toEqual({
        page: 2,
        total_pages: 3,
        page_size: 2,
        has_more: true,
        cursor: { next: expect.any(String), prev: expect.any(String) },
      });
      const newestFirst = (await reservationsOf(controller, { limit: 50 })).data!.reservations;
      expect(page.data!.reservations).toEqual(newestFirst.slice(2, 4));
      const byTag = await reservationsOf(controller, { 'filter[id_tag]': 'RFID-A' });
      expect(byTag.data!.reservations.map((reservation) => reservation.id_tag)).toEqual(['RFID-A']);
      const byId = await reservationsOf(controller, { 'filter[reservation_id]': 31 });
      expect(byId.data!.reservations.map((reservation) => reservation.status)).toEqual([
        'active',
        'replaced',
      ]);
      // Untyped escape: a status the document does not allow, which the typed client cannot send.
      const unknownStatus = await operator.api.GET('/api/v1/control/reservations', {
        querySerializer: () => `filter[controller_uuid]=${controller.uuid}&filter[status]=nope`,
      });
      expect(unknownStatus.response.status).toBe(422);

      const foreign = await readReservation(newestFirst[0].uuid, otherTenant);
      expect(foreign.response.status).toBe(404);
      expect((await reservationsOf(controller, {}, otherTenant)).data!.reservations).toEqual([]);
      const missing = await readReservation(randomUUID());
      expect(missing.response.status).toBe(404);
      expect((await reservationsOf(controller, {}, withoutPermission)).response.status).toBe(403);
    });

    it('pages by cursor forwards and back: a reservation made during the walk shifts no page', async () => {
      type Answer = Awaited<ReturnType<typeof reservationsOf>>;
      const uuids = (response: Answer) => response.data!.reservations.map((reservation) => reservation.uuid);
      /** Follows `pagination.cursor[link]` from `start`, running `during` after the second page. */
      const walk = (start: Answer, link: 'next' | 'prev', during = async () => {}) => {
        let read = 0;
        return walkCursorPages(start, link, {
          page: async (cursor) => {
            const answer = await reservationsOf(controller, { limit: 2, cursor });
            expect(answer.response.status).toBe(200);
            expect(answer.data!.pagination).toEqual({
              page_size: 2,
              has_more: expect.any(Boolean),
              cursor: expect.any(Object),
            });
            if (++read === 1) await during();
            return answer;
          },
          links: (answer) => answer.data!.pagination.cursor,
          ids: uuids,
        });
      };
      const all = uuids(await reservationsOf(controller, { limit: 50 }));
      expect(all).toHaveLength(5);
      let made = '';
      const forwards = await walk(await reservationsOf(controller, { limit: 2 }), 'next', async () => {
        // The newest reservation of all, accepted while the walk is on its second page.
        const command = await reserve(controller, { id_tag: 'RFID-G' });
        made = (await reservationOf(command.command_uuid, controller)).uuid;
      });
      expect(forwards.pages).toEqual([all.slice(0, 2), all.slice(2, 4), all.slice(4)]);
      expect(forwards.last.data!.pagination.has_more).toBe(false);
      const backwards = await walk(forwards.last, 'prev');
      expect(backwards.pages.reverse()).toEqual([[made], ...forwards.pages]);
      expect(backwards.last.data!.pagination.cursor.prev).toBeUndefined();
      // The filters go on every page: a cursor of the page with id 31 walks only those.
      const byId = await reservationsOf(controller, { 'filter[reservation_id]': 31, limit: 1 });
      const nextById = await reservationsOf(controller, {
        'filter[reservation_id]': 31,
        limit: 1,
        cursor: byId.data!.pagination.cursor.next,
      });
      expect([...uuids(byId), ...uuids(nextById)]).toEqual(
        (await reservationsOf(controller, { 'filter[reservation_id]': 31 })).data!.reservations.map(
          (r) => r.uuid,
        ),
      );
      expect(nextById.data!.pagination.cursor.next).toBeUndefined();
    });

    it("refuses another tenant's cursor, another filter's, garbage, and a cursor with page", async () => {
      const cursor = (await reservationsOf(controller, { limit: 2 })).data!.pagination.cursor.next as string;
      expect(cursor).toEqual(expect.any(String));
      for (const [label, query, as] of [
        ["another tenant's", { limit: 2, cursor }, otherTenant],
        ["another filter's", { limit: 2, 'filter[status]': 'active', cursor }, operator],
        ['garbage', { cursor: 'bm90LWEtY3Vyc29y' }, operator],
        ['a cut one', { limit: 2, cursor: cursor.slice(0, -2) }, operator],
      ] as const) {
        const refused = await reservationsOf(controller, query, as);
        expect([label, refused.response.status]).toEqual([label, 422]);
        expect(refused.error).toEqual({
          errors: [{ parameter: 'cursor', errorKey: 'invalid_cursor', message: expect.any(String) }],
        });
      }
      const withPage = await reservationsOf(controller, { limit: 2, page: 2, cursor });
      expect(withPage.response.status).toBe(422);
      expect(withPage.error).toEqual({
        errors: [expect.objectContaining({ parameter: 'cursor' })],
      });
    });
  });

  describe('ocpp2.0.1', () => {
    let controller: ControllerView;
    let cp: ChargePoint;

    beforeAll(async () => {
      ({ controller, cp } = await connected('ocpp2.0.1'));
      cp.handle('ReserveNow', () => ({ status: 'Accepted' }));
    });

    afterAll(() => cp?.close({ force: true }));

    it('ReservationStatusUpdate ends a reservation as removed or expired, and is in the event log', async () => {
      const removed = await reserve(controller, { id_tag: 'TOKEN-1', reservation_id: 21 });
      const expired = await reserve(controller, { id_tag: 'TOKEN-2', reservation_id: 22 });
      await reservationOf(removed.command_uuid, controller);
      await reservationOf(expired.command_uuid, controller);
      expect(
        await cp.call('ReservationStatusUpdate', { reservationId: 21, reservationUpdateStatus: 'Removed' }),
      ).toEqual({});
      await cp.call('ReservationStatusUpdate', { reservationId: 22, reservationUpdateStatus: 'Expired' });
      expect(
        (await reservationOf(removed.command_uuid, controller, (found) => found.status === 'removed'))
          .ended_at,
      ).toEqual(expect.any(String));
      await reservationOf(expired.command_uuid, controller, (found) => found.status === 'expired');
      const events = await eventually(
        () =>
          operator.api.GET('/api/v1/assets/controllers/{uuid}/events', {
            params: { path: { uuid: controller.uuid }, query: { 'filter[kind]': 'reservation_status' } },
          }),
        (response) => response.data?.events.length === 2,
      );
      expect(events.data!.events.map((event) => event.details)).toEqual(
        expect.arrayContaining([
          { reservation_id: 21, status: 'Removed' },
          { reservation_id: 22, status: 'Expired' },
        ]),
      );
    });

    it('a TransactionEvent with the reservation id uses it up', async () => {
      const command = await reserve(controller, { id_tag: 'TOKEN-3', reservation_id: 23 });
      await reservationOf(command.command_uuid, controller);
      const transactionId = randomUUID();
      await cp.call('TransactionEvent', {
        eventType: 'Started',
        timestamp: new Date().toISOString(),
        seqNo: 0,
        triggerReason: 'Authorized',
        transactionInfo: { transactionId },
        evse: { id: 1, connectorId: 1 },
        idToken: { idToken: 'TOKEN-3', type: 'ISO14443' },
        reservationId: 23,
      });
      const used = await reservationOf(command.command_uuid, controller, (found) => found.status === 'used');
      const session = await eventually(
        () =>
          operator.api.GET('/api/v1/control/charging-sessions', {
            params: { query: { 'filter[ocpp_transaction_id]': transactionId } },
          }),
        (response) => response.data?.charging_sessions.length === 1,
      );
      expect(used.charging_session_uuid).toBe(session.data!.charging_sessions[0].uuid);
    });
  });
});
