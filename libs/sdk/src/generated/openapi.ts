// Generated from docs/openapi.json by `npm run openapi` (tools/sdk/sdk-types.ts, openapi-typescript). Do not edit.
export interface paths {
    "/api/v1/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Obtain tokens
         * @description The spec's form (username, password, tenant, context, uuid) and the RFC 6749 grants beside it: `password` (the default; user or API-key credentials), `client_credentials` (an API key: `client_id` its public key, `client_secret` its private key, in the body or as HTTP Basic `Authorization`; `tenant` optional) and `refresh_token`. Each may narrow the token with `scope` (a subset of the role's permissions, never more). JSON or application/x-www-form-urlencoded. Unknown fields are ignored (RFC 6749 §3.2), on this endpoint only. Bad input answers 400 with one item per problem (a scope beyond the role: errorKey invalid_scope; a `uuid` that is not the tenant's: invalid_value on uuid); wrong credentials 401.
         */
        post: operations["issueToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/locations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List locations
         * @description Newest first unless order_by says otherwise. The list can grow without bound, so it is offered by cursor too (cursor and limit, the same filters and order_by; pagination.cursor.next / prev), read by keyset in any order.
         */
        get: operations["listLocations"];
        put?: never;
        /** Create a location */
        post: operations["createLocation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/locations/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a location */
        get: operations["getLocation"];
        put?: never;
        post?: never;
        /**
         * Delete a location
         * @description Refused with 422 (errorKey has_dependents) while controllers are at the location. Sensors attached to the location itself and its facility-type list are deleted with it.
         */
        delete: operations["deleteLocation"];
        options?: never;
        head?: never;
        /** Change some fields of a location */
        patch: operations["updateLocation"];
        trace?: never;
    };
    "/api/v1/assets/facility-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the facility-type catalogue */
        get: operations["listFacilityTypes"];
        put?: never;
        /** Add a facility type to the catalogue */
        post: operations["createFacilityType"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/controllers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List controllers
         * @description Newest first unless order_by says otherwise. The list can grow without bound, so it is offered by cursor too (cursor and limit, the same filters and order_by; pagination.cursor.next / prev), read by keyset in any order.
         */
        get: operations["listControllers"];
        put?: never;
        /** Register a controller (OCPP charge point) */
        post: operations["createController"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/controllers/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a controller with its live state */
        get: operations["getController"];
        put?: never;
        post?: never;
        /**
         * Delete a controller
         * @description Deletes its plugs and the sensors attached to it, and disconnects its charge point at once. Commands that referred to it stay listed.
         */
        delete: operations["deleteController"];
        options?: never;
        head?: never;
        /** Change some fields of a controller */
        patch: operations["updateController"];
        trace?: never;
    };
    "/api/v1/assets/controllers/{uuid}/configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a controller's configuration as its charge point reported it
         * @description The latest reported value of every 1.6 configuration key and 2.0.1 variable attribute (refresh_configuration, change_configuration, NotifyReport), ordered by key, with what reported it and when.
         */
        get: operations["getControllerConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/controllers/{uuid}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a controller's event log, newest first */
        get: operations["listControllerEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/plugs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List plugs
         * @description Newest first unless order_by says otherwise. The list can grow without bound, so it is offered by cursor too (cursor and limit, the same filters and order_by; pagination.cursor.next / prev), read by keyset in any order. Plugs without a name sort after the named ones by +name, before them by -name.
         */
        get: operations["listPlugs"];
        put?: never;
        /** Add a plug (connector) to a controller */
        post: operations["createPlug"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/plugs/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a plug with its live status */
        get: operations["getPlug"];
        put?: never;
        post?: never;
        /**
         * Delete a plug
         * @description Commands that referred to it stay listed.
         */
        delete: operations["deletePlug"];
        options?: never;
        head?: never;
        /** Change some fields of a plug */
        patch: operations["updatePlug"];
        trace?: never;
    };
    "/api/v1/assets/sensors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sensors
         * @description Newest first unless order_by says otherwise. The list can grow without bound, so it is offered by cursor too (cursor and limit, the same filters and order_by; pagination.cursor.next / prev), read by keyset in any order.
         */
        get: operations["listSensors"];
        put?: never;
        /** Add a sensor to a location or a controller */
        post: operations["createSensor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/sensors/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a sensor */
        get: operations["getSensor"];
        put?: never;
        post?: never;
        /** Delete a sensor */
        delete: operations["deleteSensor"];
        options?: never;
        head?: never;
        /** Change some fields of a sensor */
        patch: operations["updateSensor"];
        trace?: never;
    };
    "/api/v1/authorization/id-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List id tokens
         * @description Newest first unless order_by says otherwise. The list can grow without bound, so it is offered by cursor too (cursor and limit, the same filters and order_by; pagination.cursor.next / prev), read by keyset in any order.
         */
        get: operations["listIdTokens"];
        put?: never;
        /** Add a driver id token */
        post: operations["createIdToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/authorization/id-tokens/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an id token */
        get: operations["getIdToken"];
        put?: never;
        post?: never;
        /** Delete an id token */
        delete: operations["deleteIdToken"];
        options?: never;
        head?: never;
        /** Change some fields of an id token */
        patch: operations["updateIdToken"];
        trace?: never;
    };
    "/api/v1/authorization/id-tokens:import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add or replace up to 10,000 id tokens at once, all or nothing
         * @description A JSON body `{"id_tokens": [...]}` or NDJSON (`application/x-ndjson`, one token per line). A token with the value and type of a known one replaces it. Any invalid token fails the whole import; each problem is a 422 item whose `parameter` names the token by its index, e.g. `id_tokens[12].type`.
         */
        post: operations["importIdTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/authorization/decisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List authorization decisions
         * @description Newest first unless order_by says otherwise; the log grows without bound, so it is offered by cursor too (cursor and limit; pagination.cursor.next / prev).
         */
        get: operations["listAuthorizationDecisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/control/charging-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List charging sessions */
        get: operations["listChargingSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/control/charging-sessions/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a charging session */
        get: operations["getChargingSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/control/charging-sessions/{uuid}/meter-values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a charging session's meter values, oldest first */
        get: operations["listChargingSessionMeterValues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/control/reservations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List reservations, newest first */
        get: operations["listReservations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/control/reservations/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a reservation */
        get: operations["getReservation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/control/commands": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List commands */
        get: operations["listCommands"];
        put?: never;
        /**
         * Create a command
         * @description Answers 202 with the command `pending` and its Location; delivery and the outcome follow asynchronously. Every problem of the body is one 422 item; a target that does not exist for the tenant is refused on target_uuid (errorKey not_found), a type that cannot address the target type on type.
         */
        post: operations["createCommand"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/control/commands/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a command with its status and result */
        get: operations["getCommand"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List users */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a user
         * @description The password is never returned. The caller must hold every permission of the user’s role, and of a role it gives (else 403).
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a user */
        get: operations["getUser"];
        put?: never;
        post?: never;
        /**
         * Delete a user
         * @description Its tokens end at once. The caller must hold every permission of the user’s role, and of a role it gives (else 403). Refused with 422 (errorKey last_super_admin) when it would leave the tenant without an enabled user holding `*`.
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /**
         * Change a user: e-mail, password, role, disabled
         * @description A new password, another role or a disable ends the user’s tokens at once. The caller must hold every permission of the user’s role, and of a role it gives (else 403). Refused with 422 (errorKey last_super_admin) when it would leave the tenant without an enabled user holding `*`.
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/api/v1/admin/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List roles */
        get: operations["listRoles"];
        put?: never;
        /**
         * Create a role
         * @description The caller must hold every permission the role has and is given (else 403).
         */
        post: operations["createRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/roles/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a role */
        get: operations["getRole"];
        put?: never;
        post?: never;
        /**
         * Delete a role
         * @description Refused with 422 (errorKey has_dependents) while users or live API keys have it. The caller must hold every permission the role has and is given (else 403).
         */
        delete: operations["deleteRole"];
        options?: never;
        head?: never;
        /**
         * Rename a role or change its permissions
         * @description New permissions end the tokens of every holder at once. The caller must hold every permission the role has and is given (else 403). Refused with 422 (errorKey last_super_admin) when it takes `*` from the last enabled users holding it.
         */
        patch: operations["updateRole"];
        trace?: never;
    };
    "/api/v1/admin/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description The answer carries the private key, the only time it is shown. The caller must hold every permission of the key’s role, and of a role it gives (else 403).
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/api-keys/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an API key */
        get: operations["getApiKey"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description The key can never be used again and its tokens end at once; it stays listed as revoked. The caller must hold every permission of the key’s role, and of a role it gives (else 403).
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        /**
         * Rename an API key or give it another role
         * @description Another role ends the key’s tokens at once. The caller must hold every permission of the key’s role, and of a role it gives (else 403).
         */
        patch: operations["updateApiKey"];
        trace?: never;
    };
    "/api/v1/admin/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List audit events, newest first
         * @description Who changed which user, role or API key, when, from which address; before and after, no secrets.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description Newest first.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook subscription
         * @description Answers with the signing secret, which is never shown again (rotate it to get a new one).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a webhook subscription */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription
         * @description Its pending deliveries are dropped.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change some fields of a webhook subscription
         * @description Setting `enabled` to true clears `disabled_reason` and `failing_since`.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/webhooks/{uuid}:rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook subscription's signing secret
         * @description Answers with the new secret (shown only here). The previous one keeps signing beside it until `previous_secret_expires_at`: each delivery then carries two `v1,` signatures.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{uuid}:test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a ping event to a webhook subscription
         * @description Queues a signed `ping`; its outcome shows in the deliveries.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{uuid}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a webhook subscription's deliveries
         * @description Newest first: status, attempts, last response code and time, next attempt.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{uuid}/deliveries/{id}:retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description A failed or delivered delivery is pending again and sent at once, with the same webhook-id.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ErrorBody: {
            /** @example not found */
            error: string;
        };
        ValidationIssueBody: {
            /**
             * @description required, unknown_field, invalid_type, invalid_length, out_of_range, invalid_value, invalid_format, invalid_uuid (a malformed UUID, wherever it is sent), invalid_scope (token endpoint), or a domain key such as has_dependents
             * @example required
             */
            errorKey: string;
            /** @example username is required */
            message: string;
            /**
             * @description the parameter that caused the error, as the client sent it: the dotted path of a body field (`schedule.periods[0].limit`), a query parameter in bracket notation (`filter[status]`), a path parameter
             * @example username
             */
            parameter: string;
        };
        ValidationErrorsBody: {
            errors: components["schemas"]["ValidationIssueBody"][];
        };
        TokenRequestDto: {
            /**
             * @default password
             * @enum {string}
             */
            grant_type?: "password" | "client_credentials" | "refresh_token";
            /** @description User e-mail or API key public key (password grant; required there) */
            username?: string;
            /** @description Password or API key private key (password grant; required there) */
            password?: string;
            /** @description Tenant slug; scopes the token. Required with the password grant; optional with client_credentials (the API key names its tenant). */
            tenant?: string;
            /**
             * @description Entity type to authenticate against; default: the tenant's (password grant), apikey (client_credentials)
             * @enum {string}
             */
            context?: "apikey" | "contract" | "user" | "client" | "employee" | "employer";
            /**
             * Format: uuid
             * @description The tenant's own UUID (the `tenant_uuid` claim of any of its tokens; `npm run admin -- tenant:show`), for clients that want the token to carry it: it is embedded as claim `data.uuid`. It selects nothing; `tenant` does. Optional; any other UUID is refused with 400 naming `uuid` (once the credentials are right).
             */
            uuid?: string;
            /** @description client_credentials: the API key public key (or send it as HTTP Basic user). Other grants: ignored (the platform has public clients only). */
            client_id?: string;
            /** @description client_credentials: the API key private key (or as HTTP Basic password). Other grants: ignored. */
            client_secret?: string;
            /**
             * @description RFC 6749 scope: space-separated permissions the token is to carry, each covered by the role (never more); absent: all of the role's. With refresh_token: a subset of the original. A permission the role does not cover is refused with 400, errorKey invalid_scope on scope.
             * @example control:commands:list asset:locations:read
             */
            scope?: string;
            /** @description Required with grant_type refresh_token */
            refresh_token?: string;
        };
        TokenResponseDto: {
            access_token: string;
            refresh_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            /**
             * Format: int64
             * @description Lifetime of the access token in seconds
             */
            expires_in: number;
            /** @description The permissions granted, space-separated (RFC 6749 §5.1); present when a scope narrowed the token (this request or the login its refresh token descends from). */
            scope?: string;
        };
        CursorLinksBody: {
            /** @description Cursor of the next page (send it as cursor); absent on the last page. */
            next?: string;
            /** @description Cursor of the previous page; absent on the first page. */
            prev?: string;
        };
        PagePaginationBody: {
            /**
             * Format: int64
             * @description Current page number, starting at 1.
             */
            page: number;
            /**
             * Format: int64
             * @description Total number of pages.
             */
            total_pages: number;
            /**
             * Format: int64
             * @description Number of items per page (the limit asked for).
             */
            page_size: number;
            /** @description True when more pages exist after the current one. */
            has_more: boolean;
            /** @description Cursors to go on from this page in the cursor style. */
            cursor: components["schemas"]["CursorLinksBody"];
        };
        CursorPaginationBody: {
            /**
             * Format: int64
             * @description Number of items per page (the limit asked for).
             */
            page_size: number;
            /** @description True when a next page exists (pagination.cursor.next is present). */
            has_more: boolean;
            cursor: components["schemas"]["CursorLinksBody"];
        };
        FacilityTypeRefBody: {
            /** Format: uuid */
            uuid: string;
            /** @description Ignored on input (the catalogue holds the name). */
            name?: string;
        };
        CreateLocationBody: {
            /** @example Harbour car park */
            name: string;
            /**
             * @default active
             * @enum {string}
             */
            status?: "in_questioning" | "planned" | "in_construction" | "active" | "inactive" | "decommissioned";
            street?: string | null;
            house_number?: string | null;
            postal_code?: string | null;
            city?: string | null;
            district?: string | null;
            rural_district?: string | null;
            /** @description ISO 3166-1 alpha-3 country code (lower case is accepted and upper-cased). */
            country_code?: string | null;
            /** @description Decimal degrees, -90 to 90, at most 8 decimals; a string (a JSON number is accepted too). */
            latitude?: string | null;
            /** @description Decimal degrees, -180 to 180, at most 8 decimals; a string (a JSON number is accepted too). */
            longitude?: string | null;
            /** @description Metres above sea level, -1000 to 10000, at most 2 decimals; answered with exactly two. */
            height?: string | null;
            operator?: string | null;
            /** @description International phone number (E.164: + and 7 to 15 digits); spaces, hyphens, dots and slashes are dropped. */
            support_hotline?: string | null;
            /** @default false */
            publish?: boolean;
            identifier?: string | null;
            directions?: string | null;
            description?: string | null;
            comment?: string | null;
            comment_usage_agreement?: string | null;
            /** @description http or https URL. */
            website?: string | null;
            partner?: string | null;
            accounter?: string | null;
            level_measurement?: string | null;
            network_carrier?: string | null;
            available_power?: string | null;
            additional_conditions?: string | null;
            max_standing_time?: string | null;
            contract_id?: number | null;
            /**
             * Format: date
             * @description YYYY-MM-DD: when the site was last modified; defaults to the day of creation.
             */
            modification_date?: string;
            /** @description Facility types from the tenant's catalogue (GET /api/v1/assets/facility-types); replaces the list. */
            facility_types?: components["schemas"]["FacilityTypeRefBody"][];
        };
        LocationBody: {
            /** Format: uuid */
            uuid: string;
            /**
             * Format: date
             * @example 2025-05-04
             */
            created_at: string;
            /**
             * Format: date
             * @example 2025-05-04
             */
            updated_at: string;
            /**
             * Format: date
             * @example 2025-05-04
             */
            modification_date: string;
            controllers: {
                /** Format: uuid */
                controller_uuid: string;
            }[];
            /** @description Charge points at the location: distinct EVSEs (controller, evse_id) over the plugs of its controllers. */
            charge_point_count: number;
            name: string;
            /**
             * @example in_questioning
             * @enum {string}
             */
            status: "in_questioning" | "planned" | "in_construction" | "active" | "inactive" | "decommissioned";
            street?: string;
            house_number?: string;
            postal_code?: string;
            city?: string;
            district?: string;
            rural_district?: string;
            /** @example DEU */
            country_code?: string;
            /** @example 53.5461 */
            latitude?: string;
            /** @example 9.9661 */
            longitude?: string;
            /** @example 12.50 */
            height?: string;
            operator?: string;
            /** @example +4940123456 */
            support_hotline?: string;
            publish: boolean;
            identifier?: string;
            directions?: string;
            description?: string;
            comment?: string;
            comment_usage_agreement?: string;
            /** Format: uri */
            website?: string;
            partner?: string;
            accounter?: string;
            level_measurement?: string;
            network_carrier?: string;
            available_power?: string;
            additional_conditions?: string;
            max_standing_time?: string;
            contract_id?: number;
            facility_types: components["schemas"]["FacilityTypeRefBody"][];
        };
        LocationResponse: {
            location: components["schemas"]["LocationBody"];
        };
        LocationListResponse: {
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
            locations: components["schemas"]["LocationBody"][];
        };
        UpdateLocationBody: {
            /** @example Harbour car park */
            name?: string;
            /**
             * @default active
             * @enum {string}
             */
            status?: "in_questioning" | "planned" | "in_construction" | "active" | "inactive" | "decommissioned";
            street?: string | null;
            house_number?: string | null;
            postal_code?: string | null;
            city?: string | null;
            district?: string | null;
            rural_district?: string | null;
            /** @description ISO 3166-1 alpha-3 country code (lower case is accepted and upper-cased). */
            country_code?: string | null;
            /** @description Decimal degrees, -90 to 90, at most 8 decimals; a string (a JSON number is accepted too). */
            latitude?: string | null;
            /** @description Decimal degrees, -180 to 180, at most 8 decimals; a string (a JSON number is accepted too). */
            longitude?: string | null;
            /** @description Metres above sea level, -1000 to 10000, at most 2 decimals; answered with exactly two. */
            height?: string | null;
            operator?: string | null;
            /** @description International phone number (E.164: + and 7 to 15 digits); spaces, hyphens, dots and slashes are dropped. */
            support_hotline?: string | null;
            /** @default false */
            publish?: boolean;
            identifier?: string | null;
            directions?: string | null;
            description?: string | null;
            comment?: string | null;
            comment_usage_agreement?: string | null;
            /** @description http or https URL. */
            website?: string | null;
            partner?: string | null;
            accounter?: string | null;
            level_measurement?: string | null;
            network_carrier?: string | null;
            available_power?: string | null;
            additional_conditions?: string | null;
            max_standing_time?: string | null;
            contract_id?: number | null;
            /**
             * Format: date
             * @description YYYY-MM-DD: when the site was last modified; defaults to the day of creation.
             */
            modification_date?: string;
            /** @description Facility types from the tenant's catalogue (GET /api/v1/assets/facility-types); replaces the list. */
            facility_types?: components["schemas"]["FacilityTypeRefBody"][];
        };
        EmptyBody: Record<string, never>;
        CreateFacilityTypeBody: {
            /** @example Parking */
            name: string;
        };
        FacilityTypeBody: {
            /** Format: uuid */
            uuid: string;
            name: string;
            /** Format: date-time */
            created_at: string;
        };
        FacilityTypeResponse: {
            facility_type: components["schemas"]["FacilityTypeBody"];
        };
        AssetPaginationBody: {
            /**
             * Format: int64
             * @description Current page number, starting at 1.
             */
            page: number;
            /**
             * Format: int64
             * @description Total number of pages.
             */
            total_pages: number;
            /**
             * Format: int64
             * @description Number of items per page (the limit asked for).
             */
            page_size: number;
            /** @description True when more pages exist after the current one. */
            has_more: boolean;
        };
        FacilityTypeListResponse: {
            facility_types: components["schemas"]["FacilityTypeBody"][];
            pagination: components["schemas"]["AssetPaginationBody"];
        };
        CreateControllerBody: {
            /**
             * Format: uuid
             * @description The location the charge point stands at.
             */
            location_uuid: string;
            /** @example Bay 3 wallbox */
            name: string;
            /**
             * @description The charge point identity, the last segment of its connection URL and its HTTP Basic user name: 1 to 48 of A-Z a-z 0-9 * - _ = + | @ . (OCPP identifierString without ":"); unique per tenant, case-insensitively.
             * @example CP-HH-0003
             */
            ocpp_identity: string;
            /** @description HTTP Basic password of the charge point (security profiles 1 and 2, where it is required): 16 to 40 of A-Z a-z 0-9 * - _ = : + | @ . (OCPP passwordString). Stored hashed, never returned. */
            ocpp_password?: string;
            /**
             * @description OCPP security profile: 0 none, 1 Basic auth, 2 TLS + Basic auth, 3 TLS client certificate.
             * @default 1
             * @enum {number}
             */
            security_profile?: 0 | 1 | 2 | 3;
        };
        ControllerBody: {
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            location_uuid: string;
            name: string;
            ocpp_identity: string;
            /** @enum {number} */
            security_profile: 0 | 1 | 2 | 3;
            /** @description Whether an ocpp_password is set (the password itself is write-only). */
            has_ocpp_password: boolean;
            /** @enum {string} */
            readonly connection_status: "online" | "offline";
            /** @example ocpp1.6 */
            readonly ocpp_protocol?: string;
            /**
             * Format: date-time
             * @description Last message or connection from the charge point.
             */
            readonly last_seen_at?: string;
            readonly vendor?: string;
            readonly model?: string;
            readonly serial_number?: string;
            readonly firmware_version?: string;
            /** @description The latest firmware status the charge point reported, e.g. 'Installed'. */
            readonly firmware_status?: string;
            /** Format: date-time */
            readonly firmware_status_at?: string;
            /** @description The latest diagnostics / log upload status, e.g. 'Uploaded'. */
            readonly diagnostics_status?: string;
            /** Format: date-time */
            readonly diagnostics_status_at?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        ControllerResponse: {
            controller: components["schemas"]["ControllerBody"];
        };
        ControllerListResponse: {
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
            controllers: components["schemas"]["ControllerBody"][];
        };
        ControllerConfigurationEntryBody: {
            /**
             * @description The 1.6 key, or for 2.0.1 Component[instance]@evse/connector.Variable[instance]:AttributeType with each extra only when present (the attribute type unless Actual), e.g. OCPPCommCtrlr.HeartbeatInterval (as refresh_configuration names it). Unique per controller; the list is ordered by it (byte order).
             * @example OCPPCommCtrlr.HeartbeatInterval
             */
            key: string;
            /** @description 2.0.1 component; null on 1.6. */
            component?: string;
            component_instance?: string;
            evse_id?: number;
            connector_id?: number;
            /** @description The 1.6 key or the 2.0.1 variable name. */
            variable: string;
            variable_instance?: string;
            /** @description 2.0.1: Actual, Target, MinSet, MaxSet; null on 1.6. */
            attribute_type?: string;
            /** @description As reported; null when none was. */
            value?: string;
            /** @description ReadOnly, ReadWrite, WriteOnly; null when never reported. */
            mutability?: string;
            /** @description 2.0.1 variableCharacteristics from a NotifyReport (unit, dataType, limits, valuesList …). */
            characteristics?: {
                [key: string]: unknown;
            };
            /** @description How the charge point answered about it: Accepted, UnknownKey (1.6), Rejected, UnknownComponent, UnknownVariable, NotSupportedAttributeType, RebootRequired, … */
            status: string;
            /** @enum {string} */
            source_message: "GetConfiguration" | "ChangeConfiguration" | "GetVariables" | "SetVariables" | "NotifyReport";
            /**
             * Format: uuid
             * @description The command whose answer or report brought the value; null when not known.
             */
            source_command_uuid?: string;
            /**
             * Format: date-time
             * @example 2025-05-04T10:20:30Z
             */
            reported_at: string;
        };
        ControllerConfigurationResponse: {
            configuration: components["schemas"]["ControllerConfigurationEntryBody"][];
            pagination: components["schemas"]["AssetPaginationBody"];
        };
        UpdateControllerBody: {
            /**
             * Format: uuid
             * @description The location the charge point stands at.
             */
            location_uuid?: string;
            /** @example Bay 3 wallbox */
            name?: string;
            /**
             * @description The charge point identity, the last segment of its connection URL and its HTTP Basic user name: 1 to 48 of A-Z a-z 0-9 * - _ = + | @ . (OCPP identifierString without ":"); unique per tenant, case-insensitively.
             * @example CP-HH-0003
             */
            ocpp_identity?: string;
            /** @description HTTP Basic password of the charge point (security profiles 1 and 2, where it is required): 16 to 40 of A-Z a-z 0-9 * - _ = : + | @ . (OCPP passwordString). Stored hashed, never returned. */
            ocpp_password?: string;
            /**
             * @description OCPP security profile: 0 none, 1 Basic auth, 2 TLS + Basic auth, 3 TLS client certificate.
             * @default 1
             * @enum {number}
             */
            security_profile?: 0 | 1 | 2 | 3;
        };
        ControllerEventBody: {
            /** Format: uuid */
            uuid: string;
            /** @enum {string} */
            kind: "connected" | "disconnected" | "booted" | "status_changed" | "firmware_status" | "diagnostics_status" | "security_event" | "authorization_refused" | "reservation_status";
            /**
             * Format: date-time
             * @example 2025-05-04T10:20:30Z
             */
            occurred_at: string;
            /** @description The event in snake case: connected {protocol, gateway_instance}; disconnected {reason, close_code, gateway_instance}; booted {vendor, model, serial_number, firmware_version}; status_changed {connector_id, evse_id, status, error_code, reported_at}; firmware_status and diagnostics_status {status, request_id}; security_event {type, tech_info, reported_at}; authorization_refused {id_token, result, reason, message_kind}; reservation_status {reservation_id, status} (2.0.1 ReservationStatusUpdate). */
            details: {
                [key: string]: (string | number | boolean) | null;
            };
        };
        ControllerEventListResponse: {
            events: components["schemas"]["ControllerEventBody"][];
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
        };
        CreatePlugBody: {
            /** Format: uuid */
            controller_uuid: string;
            /** @description The OCPP connector id, unique per controller (OCPP 1.6 numbering across the charge point). */
            connector_id: number;
            /** @description The EVSE the connector belongs to; defaults to connector_id (one connector per EVSE). */
            evse_id?: number;
            /** @example Left CCS */
            name?: string | null;
            /**
             * @example iec_62196_t2
             * @enum {string}
             */
            standard: "chademo" | "chaoji" | "domestic_f" | "gbt_ac" | "gbt_dc" | "iec_60309_2_single_16" | "iec_60309_2_three_16" | "iec_60309_2_three_32" | "iec_60309_2_three_64" | "iec_62196_t1" | "iec_62196_t1_combo" | "iec_62196_t2" | "iec_62196_t2_combo" | "iec_62196_t3a" | "iec_62196_t3c" | "nacs" | "pantograph_bottom_up" | "pantograph_top_down" | "tesla_s";
            /**
             * @example ac_3_phase
             * @enum {string}
             */
            power_type: "ac_1_phase" | "ac_2_phase" | "ac_3_phase" | "dc";
            /**
             * @description At most 2 decimals.
             * @example 22
             */
            max_power_kw: number;
        };
        PlugBody: {
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            controller_uuid: string;
            /**
             * Format: uuid
             * @description The location of the plug's controller.
             */
            location_uuid: string;
            connector_id: number;
            evse_id: number;
            name?: string;
            /** @enum {string} */
            standard: "chademo" | "chaoji" | "domestic_f" | "gbt_ac" | "gbt_dc" | "iec_60309_2_single_16" | "iec_60309_2_three_16" | "iec_60309_2_three_32" | "iec_60309_2_three_64" | "iec_62196_t1" | "iec_62196_t1_combo" | "iec_62196_t2" | "iec_62196_t2_combo" | "iec_62196_t3a" | "iec_62196_t3c" | "nacs" | "pantograph_bottom_up" | "pantograph_top_down" | "tesla_s";
            /** @enum {string} */
            power_type: "ac_1_phase" | "ac_2_phase" | "ac_3_phase" | "dc";
            max_power_kw: number;
            /**
             * @description As the charge point last reported it (OCPP status, e.g. Available, Charging, Faulted); unknown before.
             * @example Available
             */
            readonly status: string;
            /** Format: date-time */
            readonly status_updated_at?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        PlugResponse: {
            plug: components["schemas"]["PlugBody"];
        };
        PlugListResponse: {
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
            plugs: components["schemas"]["PlugBody"][];
        };
        UpdatePlugBody: {
            /** @description The OCPP connector id, unique per controller (OCPP 1.6 numbering across the charge point). */
            connector_id?: number;
            /** @description The EVSE the connector belongs to; defaults to connector_id (one connector per EVSE). */
            evse_id?: number;
            /** @example Left CCS */
            name?: string | null;
            /**
             * @example iec_62196_t2
             * @enum {string}
             */
            standard?: "chademo" | "chaoji" | "domestic_f" | "gbt_ac" | "gbt_dc" | "iec_60309_2_single_16" | "iec_60309_2_three_16" | "iec_60309_2_three_32" | "iec_60309_2_three_64" | "iec_62196_t1" | "iec_62196_t1_combo" | "iec_62196_t2" | "iec_62196_t2_combo" | "iec_62196_t3a" | "iec_62196_t3c" | "nacs" | "pantograph_bottom_up" | "pantograph_top_down" | "tesla_s";
            /**
             * @example ac_3_phase
             * @enum {string}
             */
            power_type?: "ac_1_phase" | "ac_2_phase" | "ac_3_phase" | "dc";
            /**
             * @description At most 2 decimals.
             * @example 22
             */
            max_power_kw?: number;
        };
        CreateSensorBody: {
            /**
             * Format: uuid
             * @description Give this or controller_uuid, not both.
             */
            location_uuid?: string;
            /**
             * Format: uuid
             * @description Give this or location_uuid, not both.
             */
            controller_uuid?: string;
            /** @enum {string} */
            kind: "temperature" | "humidity" | "energy_meter" | "power_meter" | "occupancy" | "smoke" | "water_leak" | "door" | "other";
            name: string;
            serial_number?: string | null;
        };
        SensorBody: {
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            location_uuid?: string;
            /** Format: uuid */
            controller_uuid?: string;
            /** @enum {string} */
            kind: "temperature" | "humidity" | "energy_meter" | "power_meter" | "occupancy" | "smoke" | "water_leak" | "door" | "other";
            name: string;
            serial_number?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        SensorResponse: {
            sensor: components["schemas"]["SensorBody"];
        };
        SensorListResponse: {
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
            sensors: components["schemas"]["SensorBody"][];
        };
        UpdateSensorBody: {
            /** @enum {string} */
            kind?: "temperature" | "humidity" | "energy_meter" | "power_meter" | "occupancy" | "smoke" | "water_leak" | "door" | "other";
            name?: string;
            serial_number?: string | null;
        };
        IdTokenKeyBody: {
            id_token: string;
            /**
             * @description OCPP 2.0.1 IdTokenEnumType in snake case.
             * @enum {string}
             */
            type: "central" | "e_maid" | "iso14443" | "iso15693" | "key_code" | "local" | "mac_address" | "no_authorization";
        };
        IdTokenRefBody: {
            /** Format: uuid */
            uuid: string;
            id_token: string;
            /** @enum {string} */
            type: "central" | "e_maid" | "iso14443" | "iso15693" | "key_code" | "local" | "mac_address" | "no_authorization";
        };
        CreateIdTokenBody: {
            id_token: string;
            /**
             * @description OCPP 2.0.1 IdTokenEnumType in snake case.
             * @enum {string}
             */
            type: "central" | "e_maid" | "iso14443" | "iso15693" | "key_code" | "local" | "mac_address" | "no_authorization";
            /**
             * @default accepted
             * @enum {string}
             */
            status?: "accepted" | "blocked" | "expired" | "invalid";
            /** @description After it the token is answered Expired; null: never. */
            expires_at?: string | null;
            /** @description Another token of the tenant (its value and type): OCPP's parentIdTag / groupIdToken. */
            group_id_token?: components["schemas"]["IdTokenKeyBody"] | null;
            contract_reference?: string | null;
            /** @description Locations where the token is accepted; empty (the default): everywhere. */
            allowed_location_uuids?: string[];
        };
        IdTokenBody: {
            /** Format: uuid */
            uuid: string;
            id_token: string;
            /** @enum {string} */
            type: "central" | "e_maid" | "iso14443" | "iso15693" | "key_code" | "local" | "mac_address" | "no_authorization";
            /** @enum {string} */
            status: "accepted" | "blocked" | "expired" | "invalid";
            /**
             * Format: date-time
             * @example 2026-12-31T23:59:59Z
             */
            expires_at?: string;
            group_id_token?: components["schemas"]["IdTokenRefBody"];
            contract_reference?: string;
            allowed_location_uuids: string[];
            /**
             * Format: date-time
             * @example 2026-12-31T23:59:59Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-12-31T23:59:59Z
             */
            updated_at: string;
        };
        IdTokenResponse: {
            id_token: components["schemas"]["IdTokenBody"];
        };
        IdTokenListResponse: {
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
            id_tokens: components["schemas"]["IdTokenBody"][];
        };
        UpdateIdTokenBody: {
            /**
             * @default accepted
             * @enum {string}
             */
            status?: "accepted" | "blocked" | "expired" | "invalid";
            /** @description After it the token is answered Expired; null: never. */
            expires_at?: string | null;
            /** @description Another token of the tenant (its value and type): OCPP's parentIdTag / groupIdToken. */
            group_id_token?: components["schemas"]["IdTokenKeyBody"] | null;
            contract_reference?: string | null;
            /** @description Locations where the token is accepted; empty (the default): everywhere. */
            allowed_location_uuids?: string[];
        };
        IdTokenImportBody: {
            id_tokens: components["schemas"]["CreateIdTokenBody"][];
        };
        IdTokenImportResponse: {
            /** @description Tokens the import added. */
            created: number;
            /** @description Known tokens (same value and type) it replaced. */
            updated: number;
        };
        AuthorizationDecisionBody: {
            /** Format: uuid */
            uuid: string;
            /** @description The value the charge point sent. */
            id_token: string;
            /**
             * @description Of the token found, else as a 2.0.1 message named it; null for an unknown 1.6 idTag.
             * @enum {string}
             */
            type?: "central" | "e_maid" | "iso14443" | "iso15693" | "key_code" | "local" | "mac_address" | "no_authorization";
            /**
             * Format: uuid
             * @description The tenant's token the answer was about; null when the value was not known.
             */
            id_token_uuid?: string;
            /** Format: uuid */
            controller_uuid: string;
            /**
             * Format: uuid
             * @description The controller's location when its socket opened.
             */
            location_uuid: string;
            /** @enum {string} */
            result: "accepted" | "blocked" | "expired" | "invalid" | "unknown" | "not_at_this_location";
            /** @enum {string} */
            reason: "known_token" | "unknown_token" | "unknown_token_accepted" | "token_status" | "expiry_passed" | "location_not_allowed" | "tokens_unavailable";
            /** @enum {string} */
            message_kind: "authorize" | "start_transaction" | "stop_transaction" | "transaction_event";
            /**
             * Format: date-time
             * @example 2026-05-04T10:20:30Z
             */
            decided_at: string;
        };
        AuthorizationDecisionListResponse: {
            decisions: components["schemas"]["AuthorizationDecisionBody"][];
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
        };
        ChargingSessionBody: {
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            controller_uuid: string;
            /**
             * Format: uuid
             * @description Null until the plug is known.
             */
            plug_uuid?: string;
            /** @description OCPP connector id (2.0.1: within the EVSE). */
            connector_id?: number;
            /** @description OCPP 2.0.1 EVSE id; null on 1.6. */
            evse_id?: number;
            /** @description OCPP transaction id (1.6: assigned by the platform, an integer as a string). */
            ocpp_transaction_id: string;
            id_tag?: string;
            /** @enum {string} */
            status: "active" | "completed";
            /**
             * Format: date-time
             * @example 2025-05-04T10:20:30Z
             */
            started_at?: string;
            /**
             * Format: date-time
             * @example 2025-05-04T10:20:30Z
             */
            stopped_at?: string;
            /** @description Meter reading at the start, Wh. */
            meter_start_wh?: number;
            /** @description Meter reading at the end, Wh. */
            meter_stop_wh?: number;
            /** @description Energy charged, Wh: end (or, while active, latest) reading minus start reading. */
            energy_wh?: number;
            /** @description As the charge point sent it, e.g. Local, EVDisconnected; or `superseded` (a newer transaction started on the connector) or `charge_point_rebooted` (the connector reported Available after a boot). */
            stop_reason?: string;
            /** @description Highest Power.Active.Import reported for the session (no phase), W. */
            peak_power_w?: number;
            /**
             * Format: date-time
             * @description Time of the session's latest sampled value.
             * @example 2025-05-04T10:20:30Z
             */
            last_sample_at?: string;
            /**
             * Format: date-time
             * @example 2025-05-04T10:20:30Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2025-05-04T10:20:30Z
             */
            updated_at: string;
        };
        ChargingSessionListResponse: {
            charging_sessions: components["schemas"]["ChargingSessionBody"][];
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
        };
        ChargingSessionResponse: {
            charging_session: components["schemas"]["ChargingSessionBody"];
        };
        MeterValueBody: {
            /**
             * Format: date-time
             * @example 2025-05-04T10:20:30Z
             */
            sampled_at: string;
            /** @example Energy.Active.Import.Register */
            measurand: string;
            /** @example L1 */
            phase?: string;
            /** @example Outlet */
            location: string;
            /** @example Wh */
            unit: string;
            /** @example Sample.Periodic */
            context: string;
            value: number;
            evse_id?: number;
            connector_id?: number;
        };
        MeterValueListResponse: {
            meter_values: components["schemas"]["MeterValueBody"][];
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
        };
        ReservationBody: {
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            controller_uuid: string;
            /**
             * Format: uuid
             * @description The reserved plug; null when the whole charge point is reserved.
             */
            plug_uuid?: string;
            /** @description OCPP connector id of the reserved plug (1.6 numbering); null for the whole charge point. */
            connector_id?: number;
            /** @description OCPP 2.0.1 EVSE id of the reserved plug. */
            evse_id?: number;
            /** @description The OCPP reservation id sent in ReserveNow. */
            reservation_id: number;
            id_tag: string;
            /**
             * Format: date-time
             * @example 2025-05-04T10:20:30Z
             */
            expires_at: string;
            /**
             * @description active until used (a transaction started with it), cancelled (an accepted cancel_reservation), expired (the expiry passed, or the station said so), removed (by the station) or replaced (an accepted reserve with the same reservation id on the same charge point).
             * @enum {string}
             */
            status: "active" | "used" | "cancelled" | "expired" | "removed" | "replaced";
            /**
             * Format: date-time
             * @description When it stopped being active; null while active.
             * @example 2025-05-04T10:20:30Z
             */
            ended_at?: string;
            /**
             * Format: uuid
             * @description The charging session that used it, when known.
             */
            charging_session_uuid?: string;
            /**
             * Format: uuid
             * @description The reserve command that made it.
             */
            reserve_command_uuid: string;
            /**
             * Format: uuid
             * @description The cancel_reservation command that cancelled it.
             */
            cancel_command_uuid?: string;
            /**
             * Format: date-time
             * @description When the charge point's acceptance was recorded.
             * @example 2025-05-04T10:20:30Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2025-05-04T10:20:30Z
             */
            updated_at: string;
        };
        ReservationListResponse: {
            reservations: components["schemas"]["ReservationBody"][];
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
        };
        ReservationResponse: {
            reservation: components["schemas"]["ReservationBody"];
        };
        ConfigurationSettingResultBody: {
            /** @description 1.6: the key. */
            key?: string;
            /** @description 2.0.1: the component. */
            component?: string;
            component_instance?: string;
            evse_id?: number;
            connector_id?: number;
            /** @description 2.0.1: the variable. */
            variable?: string;
            variable_instance?: string;
            /** @description 2.0.1: Actual, Target, MinSet, MaxSet. */
            attribute_type?: string;
            /** @description The value sent. */
            value: string;
            /** @example Accepted */
            status: string;
        };
        CommandResultBody: {
            /**
             * @description The status the charge point answered, as sent (e.g. Accepted, Rejected, Unlocked). Stand-ins for answers without one: Accepted for any valid 1.6 UpdateFirmware / GetConfiguration reply and for a 2.0.1 GetVariables reply; Accepted / Rejected for a 1.6 GetDiagnostics reply with / without a fileName.
             * @example Accepted
             */
            status?: string;
            /**
             * @description Failure key, present only when the command failed: charge_point_offline (not connected within the validity), connection_lost (the connection dropped while the call was in flight), target_deleted (the target was deleted before delivery), invalid_response (the answer was not a valid reply), invalid_target / invalid_parameters (the command could not become a valid OCPP call for this charge point), ocpp_<code> (the charge point answered with a CALLERROR, e.g. ocpp_not_implemented).
             * @enum {string}
             */
            error?: "charge_point_offline" | "connection_lost" | "target_deleted" | "invalid_response" | "invalid_target" | "invalid_parameters" | "ocpp_format_violation" | "ocpp_generic_error" | "ocpp_internal_error" | "ocpp_message_type_not_supported" | "ocpp_not_implemented" | "ocpp_not_supported" | "ocpp_occurrence_constraint_violation" | "ocpp_property_constraint_violation" | "ocpp_protocol_error" | "ocpp_rpc_framework_error" | "ocpp_security_error" | "ocpp_type_constraint_violation";
            /** @description The charge point's answer exactly as received (the OCPP reply payload), once it answered; on a list only with include=response. See docs/commands.md. */
            response?: {
                [key: string]: unknown;
            };
            /** @description Size in bytes of an answer too large to keep (then there is no response). */
            response_omitted_bytes?: number;
            /** @description change_configuration: each setting sent, in order, with the status the charge point answered for it (Accepted, RebootRequired, Rejected, NotSupported, UnknownComponent, UnknownVariable, NotSupportedAttributeType), or how its call ended without an answer (Timeout, CallError, InvalidResponse, ConnectionLost, NotSent). The command is accepted only when every one is Accepted or RebootRequired. */
            settings?: components["schemas"]["ConfigurationSettingResultBody"][];
        };
        CommandBody: {
            /** Format: uuid */
            command_uuid: string;
            /** @enum {string} */
            target_type: "controller" | "connector" | "charging_session";
            /** Format: uuid */
            target_uuid: string;
            /** @enum {string} */
            type: "soft_reset" | "hard_reset" | "clear_cache" | "change_availability" | "unlock" | "identify" | "update_firmware" | "request_diagnostics" | "refresh_configuration" | "remote_start" | "remote_stop" | "reserve" | "cancel_reservation" | "set_charging_profile" | "clear_charging_profile" | "change_configuration" | "trigger_message" | "get_local_list_version" | "send_local_list";
            /**
             * @description pending → sent → accepted | rejected | timeout | failed; never backwards, never out of a terminal state.
             * @enum {string}
             */
            status: "pending" | "sent" | "accepted" | "rejected" | "timeout" | "failed";
            /** @description Null while pending or sent. A timeout has neither status nor error ({}); see docs/commands.md for every key. */
            result?: components["schemas"]["CommandResultBody"];
            /**
             * Format: date-time
             * @example 2025-05-04T10:20:30Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Null while pending or sent.
             * @example 2025-05-04T10:20:30Z
             */
            completed_at?: string;
        };
        CommandResponse: {
            command: components["schemas"]["CommandBody"];
        };
        CommandListResponse: {
            commands: components["schemas"]["CommandBody"][];
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
        };
        CreateUserBody: {
            /**
             * @description The login name.
             * @example operator@acme.example
             */
            email: string;
            /** @description Never returned. A new password ends the user’s tokens at once. */
            password: string;
            /** @description A role of the tenant, by name; the caller must hold all its permissions (else 403). */
            role: string;
            /**
             * @default user
             * @enum {string}
             */
            entity_type?: "employer" | "employee" | "contract" | "user" | "client";
        };
        UserBody: {
            /** Format: uuid */
            uuid: string;
            email: string;
            /** @enum {string} */
            entity_type: "employer" | "employee" | "contract" | "user" | "client";
            /** @description The role’s name. */
            role: string;
            disabled: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        UserResponse: {
            user: components["schemas"]["UserBody"];
        };
        UserListResponse: {
            users: components["schemas"]["UserBody"][];
            pagination: components["schemas"]["AssetPaginationBody"];
        };
        UpdateUserBody: {
            /**
             * @description The login name.
             * @example operator@acme.example
             */
            email?: string;
            /** @description Never returned. A new password ends the user’s tokens at once. */
            password?: string;
            /** @description A role of the tenant, by name; the caller must hold all its permissions (else 403). */
            role?: string;
            /** @description true disables the user and ends its tokens; false enables it again. */
            disabled?: boolean;
        };
        CreateRoleBody: {
            name: string;
            /**
             * @description `area:resource:action` grants (a shorter grant covers everything below it; `*` covers all). The caller must hold every one of them (else 403).
             * @example [
             *       "asset:locations",
             *       "control:commands:list"
             *     ]
             */
            permissions: string[];
        };
        RoleBody: {
            /** Format: uuid */
            uuid: string;
            name: string;
            permissions: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        RoleResponse: {
            role: components["schemas"]["RoleBody"];
        };
        RoleListResponse: {
            roles: components["schemas"]["RoleBody"][];
            pagination: components["schemas"]["AssetPaginationBody"];
        };
        UpdateRoleBody: {
            name?: string;
            /**
             * @description `area:resource:action` grants (a shorter grant covers everything below it; `*` covers all). The caller must hold every one of them (else 403). A new set ends the tokens of every holder of the role at once.
             * @example [
             *       "asset:locations",
             *       "control:commands:list"
             *     ]
             */
            permissions?: string[];
        };
        CreateApiKeyBody: {
            /** @description A role of the tenant, by name; the caller must hold all its permissions (else 403). */
            role: string;
            /** @description Default: the public key. */
            name?: string;
        };
        CreatedApiKeyBody: {
            /** Format: uuid */
            uuid: string;
            name: string;
            /** @description The `username` of a token request. */
            public_key: string;
            /** @description The role’s name. */
            role: string;
            /** @description A revoked key can never be used again. */
            revoked: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description The `password` of a token request. Shown in this answer only: auth-service keeps its hash, nothing else. */
            private_key: string;
        };
        CreatedApiKeyResponse: {
            api_key: components["schemas"]["CreatedApiKeyBody"];
        };
        ApiKeyBody: {
            /** Format: uuid */
            uuid: string;
            name: string;
            /** @description The `username` of a token request. */
            public_key: string;
            /** @description The role’s name. */
            role: string;
            /** @description A revoked key can never be used again. */
            revoked: boolean;
            /** Format: date-time */
            created_at: string;
        };
        ApiKeyListResponse: {
            api_keys: components["schemas"]["ApiKeyBody"][];
            pagination: components["schemas"]["AssetPaginationBody"];
        };
        ApiKeyResponse: {
            api_key: components["schemas"]["ApiKeyBody"];
        };
        UpdateApiKeyBody: {
            /** @description A role of the tenant, by name; the caller must hold all its permissions (else 403). Another role ends the key’s tokens at once. */
            role?: string;
            name?: string;
        };
        AuditActorBody: {
            /** @enum {string} */
            type: "user" | "api_key" | "cli";
            /**
             * Format: uuid
             * @description null for the CLI.
             */
            uuid?: string;
            /** @description The user’s e-mail, the API key’s public key, or the CLI operator’s login. */
            name: string;
        };
        AuditTargetBody: {
            /** @enum {string} */
            type: "user" | "role" | "api_key" | "tenant";
            /** Format: uuid */
            uuid: string;
        };
        AuditEventBody: {
            /** Format: uuid */
            uuid: string;
            /** Format: date-time */
            occurred_at: string;
            /** @enum {string} */
            kind: "user.created" | "user.updated" | "user.deleted" | "role.created" | "role.updated" | "role.deleted" | "api_key.created" | "api_key.updated" | "api_key.revoked" | "tenant.created" | "tenant.updated";
            actor: components["schemas"]["AuditActorBody"];
            /** @description The client address as api-gateway determined it (TRUSTED_PROXIES); null for the CLI. */
            source_address?: string;
            target: components["schemas"]["AuditTargetBody"];
            /** @description The fields the change touched; a password by name only. */
            changed_fields: string[];
            /** @description The target before; null for a creation. */
            before?: Record<string, never>;
            /** @description The target after; null for a deletion. */
            after?: Record<string, never>;
        };
        AuditEventListResponse: {
            audit_events: components["schemas"]["AuditEventBody"][];
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
        };
        CreateWebhookBody: {
            /**
             * @description Where events are POSTed: https (http only where the operator allows it). Refused (errorKey forbidden_target) when the host resolves to a loopback, private, link-local, CGNAT, multicast or metadata address.
             * @example https://example.com/webhooks/charging
             */
            url: string;
            /** @description The events to send. */
            event_types: ("command.status_changed" | "controller.connection_changed" | "plug.status_changed" | "charging_session.started" | "charging_session.updated" | "charging_session.ended")[];
            /** @description Only events of controllers at this location. */
            location_uuid?: string | null;
            /** @description Only events of this controller. */
            controller_uuid?: string | null;
            /** @default true */
            enabled?: boolean;
        };
        WebhookBody: {
            /** Format: uuid */
            uuid: string;
            url: string;
            event_types: ("command.status_changed" | "controller.connection_changed" | "plug.status_changed" | "charging_session.started" | "charging_session.updated" | "charging_session.ended")[];
            /** Format: uuid */
            location_uuid?: string;
            /** Format: uuid */
            controller_uuid?: string;
            enabled: boolean;
            /** @description Why the platform disabled it (410 from the receiver, failing for 24 hours). */
            disabled_reason?: string;
            /**
             * Format: date-time
             * @description Since when deliveries fail without a success in between.
             * @example 2026-05-04T10:20:30Z
             */
            failing_since?: string;
            /**
             * Format: date-time
             * @description Until when the previous secret still signs (after a rotation).
             * @example 2026-05-04T10:20:30Z
             */
            previous_secret_expires_at?: string;
            /**
             * Format: date-time
             * @example 2026-05-04T10:20:30Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-05-04T10:20:30Z
             */
            updated_at: string;
        };
        WebhookWithSecretResponse: {
            webhook: components["schemas"]["WebhookBody"];
            /**
             * @description The signing secret (`whsec_` + base64 key): shown here only, store it now.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        WebhookListResponse: {
            webhooks: components["schemas"]["WebhookBody"][];
            pagination: components["schemas"]["AssetPaginationBody"];
        };
        WebhookResponse: {
            webhook: components["schemas"]["WebhookBody"];
        };
        UpdateWebhookBody: {
            /**
             * @description Where events are POSTed: https (http only where the operator allows it). Refused (errorKey forbidden_target) when the host resolves to a loopback, private, link-local, CGNAT, multicast or metadata address.
             * @example https://example.com/webhooks/charging
             */
            url?: string;
            /** @description The events to send. */
            event_types?: ("command.status_changed" | "controller.connection_changed" | "plug.status_changed" | "charging_session.started" | "charging_session.updated" | "charging_session.ended")[];
            /** @description Only events of controllers at this location. */
            location_uuid?: string | null;
            /** @description Only events of this controller. */
            controller_uuid?: string | null;
            /** @default true */
            enabled?: boolean;
        };
        WebhookDeliveryBody: {
            /** Format: uuid */
            id: string;
            /** @description The webhook-id header, the same on every attempt. */
            webhook_id: string;
            /** @enum {string} */
            event_type: "command.status_changed" | "controller.connection_changed" | "plug.status_changed" | "charging_session.started" | "charging_session.updated" | "charging_session.ended" | "ping";
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            attempts: number;
            last_response_code?: number;
            /** @description The last failure: status and body excerpt, or error. */
            last_error?: string;
            /**
             * Format: date-time
             * @example 2026-05-04T10:20:30Z
             */
            last_attempt_at?: string;
            /**
             * Format: date-time
             * @description When it is tried next, while pending.
             * @example 2026-05-04T10:20:30Z
             */
            next_attempt_at?: string;
            /**
             * Format: date-time
             * @example 2026-05-04T10:20:30Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-05-04T10:20:30Z
             */
            delivered_at?: string;
        };
        WebhookDeliveryResponse: {
            delivery: components["schemas"]["WebhookDeliveryBody"];
        };
        WebhookDeliveryListResponse: {
            deliveries: components["schemas"]["WebhookDeliveryBody"][];
            /** @description A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor. */
            pagination: components["schemas"]["PagePaginationBody"] | components["schemas"]["CursorPaginationBody"];
        };
        /** @description One period of a charging schedule. */
        ChargingSchedulePeriodParameters: {
            /** @description Seconds from the schedule start; 0 in the first period, increasing from one period to the next. */
            start_period: number;
            /** @description The charging rate limit in charging_rate_unit. At most one decimal (OCPP 1.6 declares multipleOf 0.1). */
            limit: number;
            /** @description Phases to charge with. */
            number_phases?: number;
        };
        /** @description The schedule of a charging profile. */
        ChargingScheduleParameters: {
            /** @enum {string} */
            charging_rate_unit: "A" | "W";
            periods: components["schemas"]["ChargingSchedulePeriodParameters"][];
            /** @description Seconds the schedule lasts. */
            duration?: number;
            /**
             * Format: date-time
             * @description Required when kind is absolute or recurring; not allowed when relative. RFC 3339 with seconds and a time zone, e.g. 2025-01-31T22:00:00Z.
             */
            start_schedule?: string;
            /** @description The lowest rate the vehicle charges efficiently at. At most one decimal (OCPP 1.6 declares multipleOf 0.1). */
            min_charging_rate?: number;
        };
        /** @description A charging profile. Purposes per target: controller charge_point_max_profile or tx_default_profile; connector tx_default_profile; charging_session (and remote_start) tx_profile. */
        ChargingProfileParameters: {
            /** @description The profile id. */
            id: number;
            /** @description The stack level. */
            stack_level: number;
            /** @enum {string} */
            purpose: "charge_point_max_profile" | "tx_default_profile" | "tx_profile";
            /** @enum {string} */
            kind: "absolute" | "recurring" | "relative";
            /**
             * @description Required when kind is recurring, not allowed otherwise.
             * @enum {string}
             */
            recurrency_kind?: "daily" | "weekly";
            /**
             * Format: date-time
             * @description Valid from (not after valid_to). RFC 3339 with seconds and a time zone, e.g. 2025-01-31T22:00:00Z.
             */
            valid_from?: string;
            /**
             * Format: date-time
             * @description Valid until. RFC 3339 with seconds and a time zone, e.g. 2025-01-31T22:00:00Z.
             */
            valid_to?: string;
            schedule: components["schemas"]["ChargingScheduleParameters"];
        };
        /** @description A 1.6 configuration key and its new value (ChangeConfiguration). */
        KeySettingParameters: {
            key: string;
            value: string;
        };
        /** @description A 2.0.1 variable attribute and its new value (SetVariables setVariableData). */
        VariableSettingParameters: {
            /** @description Component name, as OCPP spells it (e.g. OCPPCommCtrlr). */
            component: string;
            /** @description Component instance. */
            component_instance?: string;
            /** @description The EVSE of the component; absent: station level. */
            evse_id?: number;
            /** @description The connector of the component within its EVSE (only with evse_id). */
            connector_id?: number;
            /** @description Variable name (e.g. HeartbeatInterval). */
            variable: string;
            /** @description Variable instance. */
            variable_instance?: string;
            /**
             * @description Absent: Actual.
             * @enum {string}
             */
            attribute_type?: "Actual" | "Target" | "MinSet" | "MaxSet";
            value: string;
        };
        /** soft_reset command */
        SoftResetCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "soft_reset";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            /** @description This type takes no parameters. */
            parameters?: Record<string, never>;
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** hard_reset command */
        HardResetCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "hard_reset";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            /** @description This type takes no parameters. */
            parameters?: Record<string, never>;
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** clear_cache command */
        ClearCacheCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "clear_cache";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            /** @description This type takes no parameters. */
            parameters?: Record<string, never>;
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description Availability of the charge point or connector. */
        ChangeAvailabilityParameters: {
            /** @enum {string} */
            availability: "operative" | "inoperative";
        };
        /** change_availability command */
        ChangeAvailabilityCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "change_availability";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller" | "connector";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters: components["schemas"]["ChangeAvailabilityParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** unlock command */
        UnlockCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "unlock";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "connector";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            /** @description This type takes no parameters. */
            parameters?: Record<string, never>;
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** identify command */
        IdentifyCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "identify";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            /** @description This type takes no parameters. */
            parameters?: Record<string, never>;
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description Where to fetch the firmware and when. */
        UpdateFirmwareParameters: {
            /**
             * Format: uri
             * @description Where the charge point downloads the firmware. An absolute URI with a host; schemes ftp, ftps, http, https, sftp.
             */
            location: string;
            /**
             * Format: date-time
             * @description Download no earlier than this; absent: now. RFC 3339 with seconds and a time zone, e.g. 2025-01-31T22:00:00Z.
             */
            retrieve_at?: string;
            /** @description How often the charge point retries. */
            retries?: number;
            /** @description Seconds between retries. */
            retry_interval?: number;
            /**
             * Format: date-time
             * @description Install no earlier than this (not before retrieve_at). RFC 3339 with seconds and a time zone, e.g. 2025-01-31T22:00:00Z.
             */
            install_at?: string;
        };
        /** update_firmware command */
        UpdateFirmwareCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "update_firmware";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters: components["schemas"]["UpdateFirmwareParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description Where to upload the diagnostics and which period they cover. */
        RequestDiagnosticsParameters: {
            /**
             * Format: uri
             * @description Where the charge point uploads the diagnostics. An absolute URI with a host; schemes ftp, ftps, http, https, sftp.
             */
            location: string;
            /**
             * Format: date-time
             * @description Oldest entry wanted (not after stop_time). RFC 3339 with seconds and a time zone, e.g. 2025-01-31T22:00:00Z.
             */
            start_time?: string;
            /**
             * Format: date-time
             * @description Newest entry wanted. RFC 3339 with seconds and a time zone, e.g. 2025-01-31T22:00:00Z.
             */
            stop_time?: string;
            /** @description How often the charge point retries. */
            retries?: number;
            /** @description Seconds between retries. */
            retry_interval?: number;
        };
        /** request_diagnostics command */
        RequestDiagnosticsCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "request_diagnostics";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters: components["schemas"]["RequestDiagnosticsParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description Which configuration keys to read; absent or empty: all. */
        RefreshConfigurationParameters: {
            keys?: string[];
        };
        /** refresh_configuration command */
        RefreshConfigurationCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "refresh_configuration";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters?: components["schemas"]["RefreshConfigurationParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description Who starts, and optionally with which profile. */
        RemoteStartParameters: {
            /** @description The id token, printable ASCII; at most 20 characters (OCPP 1.6 CiString20). */
            id_tag: string;
            charging_profile?: components["schemas"]["ChargingProfileParameters"];
        };
        /** remote_start command */
        RemoteStartCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "remote_start";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "connector" | "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters: components["schemas"]["RemoteStartParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** remote_stop command */
        RemoteStopCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "remote_stop";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "charging_session";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            /** @description This type takes no parameters. */
            parameters?: Record<string, never>;
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description Who the reservation is for and until when. */
        ReserveParameters: {
            /** @description The id token, printable ASCII; at most 20 characters (OCPP 1.6 CiString20). */
            id_tag: string;
            /**
             * Format: date-time
             * @description When the reservation ends; must lie in the future. RFC 3339 with seconds and a time zone, e.g. 2025-01-31T22:00:00Z.
             */
            expires_at: string;
            /** @description Absent: derived from the command uuid. */
            reservation_id?: number;
        };
        /** reserve command */
        ReserveCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "reserve";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "connector" | "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters: components["schemas"]["ReserveParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description The reservation to cancel. */
        CancelReservationParameters: {
            /** @description The id of the reservation. */
            reservation_id: number;
        };
        /** cancel_reservation command */
        CancelReservationCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "cancel_reservation";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters: components["schemas"]["CancelReservationParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description The profile to set. */
        SetChargingProfileParameters: {
            charging_profile: components["schemas"]["ChargingProfileParameters"];
        };
        /** set_charging_profile command */
        SetChargingProfileCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "set_charging_profile";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller" | "connector" | "charging_session";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters: components["schemas"]["SetChargingProfileParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description Which profiles to clear; each field narrows the selection, none clears every profile. */
        ClearChargingProfileParameters: {
            /** @description The profile id. */
            id?: number;
            /** @enum {string} */
            purpose?: "charge_point_max_profile" | "tx_default_profile" | "tx_profile";
            /** @description The stack level. */
            stack_level?: number;
        };
        /** clear_charging_profile command */
        ClearChargingProfileCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "clear_charging_profile";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller" | "connector";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters?: components["schemas"]["ClearChargingProfileParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description The settings to change, in order, all of one kind: 1.6 keys or 2.0.1 variables. At most what the charge point allows as far as its stored configuration tells (1.6 GetConfigurationMaxKeys, 2.0.1 ItemsPerMessageSetVariables), else 20. */
        ChangeConfigurationParameters: {
            settings: (components["schemas"]["KeySettingParameters"] | components["schemas"]["VariableSettingParameters"])[];
        };
        /** change_configuration command */
        ChangeConfigurationCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "change_configuration";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters: components["schemas"]["ChangeConfigurationParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description The message the charge point is asked to send (a connector target: meter_values or status_notification). */
        TriggerMessageParameters: {
            /** @enum {string} */
            message: "boot_notification" | "heartbeat" | "meter_values" | "status_notification" | "firmware_status_notification" | "diagnostics_status_notification";
        };
        /** trigger_message command */
        TriggerMessageCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "trigger_message";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller" | "connector";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters: components["schemas"]["TriggerMessageParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** get_local_list_version command */
        GetLocalListVersionCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "get_local_list_version";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            /** @description This type takes no parameters. */
            parameters?: Record<string, never>;
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description The controller's local authorization list: which tokens, and how (docs/authorization.md). */
        SendLocalListParameters: {
            /**
             * @description full: the list becomes these tokens; differential: only what changed since the list the controller accepted last (added, changed and removed tokens).
             * @enum {string}
             */
            update_type: "full" | "differential";
            /** @description The tenant's id tokens to list; absent: every token allowed at the controller's location. */
            id_token_uuids?: string[];
            /** @description After a VersionMismatch answer, send the whole list as a full update at once. */
            full_on_version_mismatch?: boolean;
        };
        /** send_local_list command */
        SendLocalListCommandRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "send_local_list";
            /**
             * @description The target types this command type can address (422 on type otherwise).
             * @enum {string}
             */
            target_type: "controller";
            /**
             * Format: uuid
             * @description A controller, plug (connector) or charging session of the tenant.
             */
            target_uuid: string;
            parameters: components["schemas"]["SendLocalListParameters"];
            /**
             * @description How long the command may wait for an offline charge point to connect; 0 fails it at once with charge_point_offline when the charge point is not connected.
             * @default 0
             */
            valid_for_seconds?: number;
        };
        /** @description A command to create. `type` selects the schema, and with it which target types and parameters are allowed (docs/spec/ocpp-mapping.md). command-service judges the body and reports every problem at once. */
        CreateCommandRequest: components["schemas"]["SoftResetCommandRequest"] | components["schemas"]["HardResetCommandRequest"] | components["schemas"]["ClearCacheCommandRequest"] | components["schemas"]["ChangeAvailabilityCommandRequest"] | components["schemas"]["UnlockCommandRequest"] | components["schemas"]["IdentifyCommandRequest"] | components["schemas"]["UpdateFirmwareCommandRequest"] | components["schemas"]["RequestDiagnosticsCommandRequest"] | components["schemas"]["RefreshConfigurationCommandRequest"] | components["schemas"]["RemoteStartCommandRequest"] | components["schemas"]["RemoteStopCommandRequest"] | components["schemas"]["ReserveCommandRequest"] | components["schemas"]["CancelReservationCommandRequest"] | components["schemas"]["SetChargingProfileCommandRequest"] | components["schemas"]["ClearChargingProfileCommandRequest"] | components["schemas"]["ChangeConfigurationCommandRequest"] | components["schemas"]["TriggerMessageCommandRequest"] | components["schemas"]["GetLocalListVersionCommandRequest"] | components["schemas"]["SendLocalListCommandRequest"];
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    issueToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenRequestDto"];
                "application/x-www-form-urlencoded": components["schemas"]["TokenRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponseDto"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Wrong credentials, or an expired or used refresh token. When client_credentials came as HTTP Basic, the answer challenges that scheme (RFC 6749 §5.2): WWW-Authenticate: Basic realm="charging-platform-core". */
            401: {
                headers: {
                    /** @description Basic realm="charging-platform-core" when the client authenticated with HTTP Basic. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listLocations: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. Send + as %2B (an unencoded + in a query string is a space, which is read as +). Fields: created_at, name. */
                order_by?: string;
                /** @description Part of the name, case-insensitive. */
                "filter[name]"?: string;
                "filter[status]"?: "in_questioning" | "planned" | "in_construction" | "active" | "inactive" | "decommissioned";
                "filter[city]"?: string;
                "filter[postal_code]"?: string;
                "filter[country_code]"?: string;
                "filter[identifier]"?: string;
                "filter[publish]"?: boolean;
                /** @description Locations that list this facility type. */
                "filter[facility_type_uuid]"?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocationListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createLocation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateLocationBody"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocationResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getLocation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Location UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocationResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteLocation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Location UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the body is an empty object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmptyBody"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateLocation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Location UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateLocationBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocationResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listFacilityTypes: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. Send + as %2B (an unencoded + in a query string is a space, which is read as +). Fields: created_at, name. */
                order_by?: string;
                /** @description Part of the name, case-insensitive. */
                "filter[name]"?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FacilityTypeListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createFacilityType: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateFacilityTypeBody"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FacilityTypeResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listControllers: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. Send + as %2B (an unencoded + in a query string is a space, which is read as +). Fields: created_at, name. */
                order_by?: string;
                "filter[location_uuid]"?: string;
                /** @description Part of the name, case-insensitive. */
                "filter[name]"?: string;
                /** @description The identity, case-insensitive. */
                "filter[ocpp_identity]"?: string;
                "filter[connection_status]"?: "online" | "offline";
                "filter[security_profile]"?: 0 | 1 | 2 | 3;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControllerListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createController: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateControllerBody"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControllerResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getController: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Controller UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControllerResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteController: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Controller UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the body is an empty object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmptyBody"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateController: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Controller UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateControllerBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControllerResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getControllerConfiguration: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description 2.0.1: the component name, exactly. */
                "filter[component]"?: string;
                /** @description The start of the key, case-sensitive. */
                "filter[key_prefix]"?: string;
            };
            header?: never;
            path: {
                /** @description Controller UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControllerConfigurationResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listControllerEvents: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                "filter[kind]"?: "connected" | "disconnected" | "booted" | "status_changed" | "firmware_status" | "diagnostics_status" | "security_event" | "authorization_refused" | "reservation_status";
                /** @description Events at or after. */
                "filter[occurred_from]"?: string;
                /** @description Events before. */
                "filter[occurred_to]"?: string;
            };
            header?: never;
            path: {
                /** @description Controller UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControllerEventListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listPlugs: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. Send + as %2B (an unencoded + in a query string is a space, which is read as +). Fields: created_at, name, connector_id. */
                order_by?: string;
                "filter[controller_uuid]"?: string;
                /** @description The location of the plug's controller. */
                "filter[location_uuid]"?: string;
                "filter[connector_id]"?: number;
                "filter[evse_id]"?: number;
                "filter[standard]"?: "chademo" | "chaoji" | "domestic_f" | "gbt_ac" | "gbt_dc" | "iec_60309_2_single_16" | "iec_60309_2_three_16" | "iec_60309_2_three_32" | "iec_60309_2_three_64" | "iec_62196_t1" | "iec_62196_t1_combo" | "iec_62196_t2" | "iec_62196_t2_combo" | "iec_62196_t3a" | "iec_62196_t3c" | "nacs" | "pantograph_bottom_up" | "pantograph_top_down" | "tesla_s";
                "filter[power_type]"?: "ac_1_phase" | "ac_2_phase" | "ac_3_phase" | "dc";
                /** @description As the charge point reported it, e.g. Available, Charging; or unknown. */
                "filter[status]"?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlugListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createPlug: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePlugBody"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlugResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getPlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Plug UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlugResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deletePlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Plug UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the body is an empty object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmptyBody"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updatePlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Plug UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePlugBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlugResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listSensors: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. Send + as %2B (an unencoded + in a query string is a space, which is read as +). Fields: created_at, name. */
                order_by?: string;
                "filter[location_uuid]"?: string;
                "filter[controller_uuid]"?: string;
                "filter[kind]"?: "temperature" | "humidity" | "energy_meter" | "power_meter" | "occupancy" | "smoke" | "water_leak" | "door" | "other";
                /** @description Part of the name, case-insensitive. */
                "filter[name]"?: string;
                "filter[serial_number]"?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SensorListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createSensor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSensorBody"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SensorResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getSensor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Sensor UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SensorResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteSensor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A version-4 UUID in lower-case hexadecimal. */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateSensor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Sensor UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSensorBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SensorResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listIdTokens: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. Send + as %2B (an unencoded + in a query string is a space, which is read as +). Fields: created_at, id_token. */
                order_by?: string;
                /** @description The value, case-insensitive. */
                "filter[id_token]"?: string;
                "filter[type]"?: "central" | "e_maid" | "iso14443" | "iso15693" | "key_code" | "local" | "mac_address" | "no_authorization";
                "filter[status]"?: "accepted" | "blocked" | "expired" | "invalid";
                "filter[contract_reference]"?: string;
                /** @description Tokens whose group is this token. */
                "filter[group_id_token]"?: string;
                /** @description Tokens accepted at this location (restricted to it, or unrestricted). */
                "filter[location_uuid]"?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdTokenListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createIdToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateIdTokenBody"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdTokenResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getIdToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id token UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdTokenResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteIdToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id token UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the body is an empty object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmptyBody"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateIdToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id token UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateIdTokenBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdTokenResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    importIdTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IdTokenImportBody"];
                "application/x-ndjson": components["schemas"]["IdTokenImportBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdTokenImportResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listAuthorizationDecisions: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. Send + as %2B (an unencoded + in a query string is a space, which is read as +). Fields: decided_at. */
                order_by?: string;
                /** @description The value the charge point sent, case-insensitive. */
                "filter[id_token]"?: string;
                "filter[controller_uuid]"?: string;
                "filter[result]"?: "accepted" | "blocked" | "expired" | "invalid" | "unknown" | "not_at_this_location";
                /** @description Decisions at or after. */
                "filter[decided_from]"?: string;
                /** @description Decisions before. */
                "filter[decided_to]"?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthorizationDecisionListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listChargingSessions: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -started_at. Send + as %2B. Fields: started_at, created_at. */
                order_by?: string;
                "filter[controller_uuid]"?: string;
                "filter[plug_uuid]"?: string;
                /** @description active until the charge point ends it */
                "filter[status]"?: "active" | "completed";
                /** @description The id tag / id token that started the session. */
                "filter[id_tag]"?: string;
                "filter[ocpp_transaction_id]"?: string;
                /** @description Sessions started at or after. */
                "filter[started_from]"?: string;
                /** @description Sessions started before. */
                "filter[started_to]"?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChargingSessionListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getChargingSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Charging session UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChargingSessionResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listChargingSessionMeterValues: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                /** @description OCPP measurand. */
                "filter[measurand]"?: string;
                /** @description Values sampled at or after. */
                "filter[sampled_from]"?: string;
                /** @description Values sampled before. */
                "filter[sampled_to]"?: string;
            };
            header?: never;
            path: {
                /** @description Charging session UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeterValueListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listReservations: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                "filter[controller_uuid]"?: string;
                "filter[plug_uuid]"?: string;
                /** @description An active reservation past its expiry is expired. */
                "filter[status]"?: "active" | "used" | "cancelled" | "expired" | "removed" | "replaced";
                /** @description The id tag the reservation is for. */
                "filter[id_tag]"?: string;
                /** @description The OCPP reservation id. */
                "filter[reservation_id]"?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReservationListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getReservation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Reservation UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReservationResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listCommands: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. Send + as %2B (an unencoded + in a query string is a space, which is read as +). The only sortable field is created_at (ties: command_uuid). */
                order_by?: string;
                /** @description Comma-separated optional parts of each command: `response` adds the charge point's answer as `result.response` (always on a single command). */
                include?: string;
                "filter[target_type]"?: "controller" | "connector" | "charging_session";
                /** @description Target UUID */
                "filter[target_uuid]"?: string;
                "filter[type]"?: "soft_reset" | "hard_reset" | "clear_cache" | "change_availability" | "unlock" | "identify" | "update_firmware" | "request_diagnostics" | "refresh_configuration" | "remote_start" | "remote_stop" | "reserve" | "cancel_reservation" | "set_charging_profile" | "clear_charging_profile" | "change_configuration" | "trigger_message" | "get_local_list_version" | "send_local_list";
                "filter[status]"?: "pending" | "sent" | "accepted" | "rejected" | "timeout" | "failed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommandListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createCommand: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeating a request with the same key and body within 24 hours returns the first command (202) and delivers nothing again; the same key with another body is refused (422, errorKey idempotency_key_reused). 1 to 255 visible ASCII characters. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCommandRequest"];
            };
        };
        responses: {
            202: {
                headers: {
                    /** @description The command: /api/v1/control/commands/{uuid} */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommandResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCommand: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Command UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommandResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. Send + as %2B (an unencoded + in a query string is a space, which is read as +). Fields: created_at, email. */
                order_by?: string;
                /** @description Part of the e-mail address, case-insensitive. */
                "filter[email]"?: string;
                /** @description The role’s name. */
                "filter[role]"?: string;
                "filter[disabled]"?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserBody"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the body is an empty object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmptyBody"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listRoles: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. Send + as %2B (an unencoded + in a query string is a space, which is read as +). Fields: created_at, name. */
                order_by?: string;
                /** @description Part of the name, case-insensitive. */
                "filter[name]"?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createRole: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRoleBody"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Role UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Role UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the body is an empty object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmptyBody"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Role UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRoleBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. Send + as %2B (an unencoded + in a query string is a space, which is read as +). Fields: created_at, name. */
                order_by?: string;
                /** @description Part of the name, case-insensitive. */
                "filter[name]"?: string;
                /** @description The role’s name. */
                "filter[role]"?: string;
                "filter[revoked]"?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyBody"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKeyResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the body is an empty object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmptyBody"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateApiKeyBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                /** @description The acting user or API key. */
                "filter[actor_uuid]"?: string;
                "filter[actor_type]"?: "user" | "api_key" | "cli";
                "filter[kind]"?: "user.created" | "user.updated" | "user.deleted" | "role.created" | "role.updated" | "role.deleted" | "api_key.created" | "api_key.updated" | "api_key.revoked" | "tenant.created" | "tenant.updated";
                /** @description The changed user, role, API key or tenant. */
                "filter[target_uuid]"?: string;
                /** @description Events at or after this instant. */
                "filter[from]"?: string;
                /** @description Events before this instant. */
                "filter[to]"?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookBody"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecretResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook subscription UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook subscription UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the body is an empty object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmptyBody"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook subscription UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook subscription UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecretResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook subscription UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Maximum items per page. */
                limit?: number;
                /** @description The same as limit (the spec's pagination conventions accept both); when both are sent they must agree. */
                page_size?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters and order. The page then follows (or precedes) that position, read from the index whatever its depth, and its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that is not one of this list is refused (422, errorKey invalid_cursor). */
                cursor?: string;
                /** @description Only deliveries in this status. */
                status?: "pending" | "delivered" | "failed";
            };
            header?: never;
            path: {
                /** @description Webhook subscription UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryListResponse"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook subscription UUID */
                uuid: string;
                /** @description Delivery id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryResponse"];
                };
            };
            /** @description Malformed request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid or expired token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid token, permission missing */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Method not allowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorsBody"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A backing service is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
}
