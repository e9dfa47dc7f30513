import { randomUUID } from 'node:crypto';
import type { ControllerView, PlugView, ReservationView } from '@cpc/contracts';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  CommandsTestClient,
  eventually,
  onlineChargePoint,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
  walkCursorPages,
} from '@cpc/testing';

interface ReservationPage {
  reservations: ReservationView[];
  /** A numbered page's (page, total_pages, …), or a cursor page's (no page numbers); both with `cursor`. */
  pagination: {
    page?: number;
    total_pages?: number;
    page_size: number;
    has_more: boolean;
    cursor: { next?: string; prev?: string };
  };
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Reservations made by reserve commands on real, strict ocpp-rpc charge points (1.6 and 2.0.1), followed through what
 * the charge points report: a transaction that uses one, a cancel_reservation, the expiry, a 2.0.1
 * ReservationStatusUpdate. Read through `/api/v1/control/reservations`, every response checked against the served
 * OpenAPI document.
 */
describe('reservations', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let token: string;
  let data: AssetsTestData;
  let commands: CommandsTestClient;
  /** Another tenant's operator, and a user of this tenant without the reservations permissions. */
  let otherTenant: string;
  let withoutPermission: string;

  const reservationsOf = (controller: ControllerView, query = '', as = token) =>
    api.call<ReservationPage>(
      'GET',
      `/api/v1/control/reservations?filter[controller_uuid]=${controller.uuid}${query}`,
      { token: as },
    );

  /** The reservation of a reserve command, once command-service has it in the state `accept` wants. */
  const reservationOf = (
    commandUuid: string,
    controller: ControllerView,
    accept = (_: ReservationView) => true,
  ) =>
    eventually(
      async () =>
        (await reservationsOf(controller, '&limit=50')).body.reservations.find(
          (reservation) => reservation.reserve_command_uuid === commandUuid,
        ),
      (reservation) => reservation !== undefined && accept(reservation),
    ) as Promise<ReservationView>;

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

  const reserve = async (
    controller: ControllerView,
    parameters: Record<string, unknown>,
    plug?: PlugView,
  ) => {
    const command = await commands.create({
      type: 'reserve',
      target_type: plug ? 'connector' : 'controller',
      target_uuid: plug ? plug.uuid : controller.uuid,
      parameters: { expires_at: inAnHour(), ...parameters },
    });
    return commands.ended(command.command_uuid);
  };

  beforeAll(async () => {
    platform = await startPlatformUnderTest();
    api = await ApiTestClient.connect(platform.apiUrl);
    let commandsOnly: string;
    ({ operator: token, commandsOnly } = await tenantWithUsers(platform, api, 'acme', {
      operator: 'asset,control',
      commandsOnly: 'asset,control:commands',
    }));
    withoutPermission = commandsOnly;
    otherTenant = (await tenantWithUsers(platform, api, 'other', { operator: 'control' })).operator;
    data = new AssetsTestData(api, token);
    commands = new CommandsTestClient(api, token);
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
      const read = await api.call('GET', `/api/v1/control/reservations/${active.uuid}`, { token });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ reservation: active });

      const startedAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const { transactionId } = (await cp.call('StartTransaction', {
        connectorId: 1,
        idTag: 'RFID-A',
        meterStart: 0,
        timestamp: startedAt,
        reservationId: 11,
      })) as { transactionId: number };
      const used = await reservationOf(command.command_uuid, controller, (found) => found.status === 'used');
      const sessions = await api.call(
        'GET',
        `/api/v1/control/charging-sessions?filter[ocpp_transaction_id]=${transactionId}&filter[controller_uuid]=${controller.uuid}`,
        { token },
      );
      expect(used).toMatchObject({
        ended_at: startedAt,
        charging_session_uuid: sessions.body.charging_sessions[0].uuid,
      });
    });

    it('cancel_reservation ends the reservation it names; a refused reserve makes none', async () => {
      const command = await reserve(controller, { id_tag: 'RFID-B' });
      expect(command.status).toBe('accepted');
      const active = await reservationOf(command.command_uuid, controller);
      expect(active).toMatchObject({ status: 'active' });
      for (const unset of ['plug_uuid', 'connector_id']) expect(active).not.toHaveProperty(unset);
      const cancel = await commands.create({
        type: 'cancel_reservation',
        target_type: 'controller',
        target_uuid: controller.uuid,
        parameters: { reservation_id: active.reservation_id },
      });
      expect((await commands.ended(cancel.command_uuid)).status).toBe('accepted');
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
      const all = (await reservationsOf(controller, '&limit=50')).body.reservations;
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
      const byStatus = await reservationsOf(controller, '&filter[status]=expired');
      expect(byStatus.body.reservations.map((reservation) => reservation.uuid)).toEqual([expired.uuid]);
    });

    it('pages and filters; another tenant gets 404, a caller without the permission 403', async () => {
      const page = await reservationsOf(controller, '&limit=2&page=2');
      expect(page.status).toBe(200);
      expect(page.body.pagination).toEqual({
        page: 2,
        total_pages: 3,
        page_size: 2,
        has_more: true,
        cursor: { next: expect.any(String), prev: expect.any(String) },
      });
      const newestFirst = (await reservationsOf(controller, '&limit=50')).body.reservations;
      expect(page.body.reservations).toEqual(newestFirst.slice(2, 4));
      const byTag = await reservationsOf(controller, '&filter[id_tag]=RFID-A');
      expect(byTag.body.reservations.map((reservation) => reservation.id_tag)).toEqual(['RFID-A']);
      const byId = await reservationsOf(controller, '&filter[reservation_id]=31');
      expect(byId.body.reservations.map((reservation) => reservation.status)).toEqual(['active', 'replaced']);
      expect((await reservationsOf(controller, '&filter[status]=nope')).status).toBe(422);

      const foreign = await api.call('GET', `/api/v1/control/reservations/${newestFirst[0].uuid}`, {
        token: otherTenant,
      });
      expect(foreign.status).toBe(404);
      expect((await reservationsOf(controller, '', otherTenant)).body.reservations).toEqual([]);
      const missing = await api.call('GET', `/api/v1/control/reservations/${randomUUID()}`, { token });
      expect(missing.status).toBe(404);
      expect((await reservationsOf(controller, '', withoutPermission)).status).toBe(403);
    });

    it('pages by cursor forwards and back: a reservation made during the walk shifts no page', async () => {
      type Answer = Awaited<ReturnType<typeof reservationsOf>>;
      const uuids = (response: Answer) => response.body.reservations.map((reservation) => reservation.uuid);
      /** Follows `pagination.cursor[link]` from `start`, running `during` after the second page. */
      const walk = (start: Answer, link: 'next' | 'prev', during = async () => {}) => {
        let read = 0;
        return walkCursorPages(start, link, {
          page: async (cursor) => {
            const answer = await reservationsOf(controller, `&limit=2&cursor=${cursor}`);
            expect(answer.status).toBe(200);
            expect(answer.body.pagination).toEqual({
              page_size: 2,
              has_more: expect.any(Boolean),
              cursor: expect.any(Object),
            });
            if (++read === 1) await during();
            return answer;
          },
          links: (answer) => answer.body.pagination.cursor,
          ids: uuids,
        });
      };
      const all = uuids(await reservationsOf(controller, '&limit=50'));
      expect(all).toHaveLength(5);
      let made = '';
      const forwards = await walk(await reservationsOf(controller, '&limit=2'), 'next', async () => {
        // The newest reservation of all, accepted while the walk is on its second page.
        const command = await reserve(controller, { id_tag: 'RFID-G' });
        made = (await reservationOf(command.command_uuid, controller)).uuid;
      });
      expect(forwards.pages).toEqual([all.slice(0, 2), all.slice(2, 4), all.slice(4)]);
      expect(forwards.last.body.pagination.has_more).toBe(false);
      const backwards = await walk(forwards.last, 'prev');
      expect(backwards.pages.reverse()).toEqual([[made], ...forwards.pages]);
      expect(backwards.last.body.pagination.cursor.prev).toBeUndefined();
      // The filters go on every page: a cursor of the page with id 31 walks only those.
      const byId = await reservationsOf(controller, '&filter[reservation_id]=31&limit=1');
      const nextById = await reservationsOf(
        controller,
        `&filter[reservation_id]=31&limit=1&cursor=${byId.body.pagination.cursor.next}`,
      );
      expect([...uuids(byId), ...uuids(nextById)]).toEqual(
        (await reservationsOf(controller, '&filter[reservation_id]=31')).body.reservations.map((r) => r.uuid),
      );
      expect(nextById.body.pagination.cursor.next).toBeUndefined();
    });

    it("refuses another tenant's cursor, another filter's, garbage, and a cursor with page", async () => {
      const cursor = (await reservationsOf(controller, '&limit=2')).body.pagination.cursor.next as string;
      expect(cursor).toEqual(expect.any(String));
      for (const [query, as] of [
        [`&limit=2&cursor=${cursor}`, otherTenant],
        [`&limit=2&filter[status]=active&cursor=${cursor}`, token],
        ['&cursor=bm90LWEtY3Vyc29y', token],
        [`&limit=2&cursor=${cursor.slice(0, -2)}`, token],
      ]) {
        const refused = await reservationsOf(controller, query, as);
        expect([query, refused.status]).toEqual([query, 422]);
        expect(refused.body).toEqual({
          errors: [{ parameter: 'cursor', errorKey: 'invalid_cursor', message: expect.any(String) }],
        });
      }
      const withPage = await reservationsOf(controller, `&limit=2&page=2&cursor=${cursor}`);
      expect(withPage.status).toBe(422);
      expect(withPage.body).toEqual({
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
          api.call(
            'GET',
            `/api/v1/assets/controllers/${controller.uuid}/events?filter[kind]=reservation_status`,
            { token },
          ),
        (response) => response.body.events?.length === 2,
      );
      expect(events.body.events.map((event: { details: unknown }) => event.details)).toEqual(
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
          api.call('GET', `/api/v1/control/charging-sessions?filter[ocpp_transaction_id]=${transactionId}`, {
            token,
          }),
        (response) => response.body.charging_sessions?.length === 1,
      );
      expect(used.charging_session_uuid).toBe(session.body.charging_sessions[0].uuid);
    });
  });
});
