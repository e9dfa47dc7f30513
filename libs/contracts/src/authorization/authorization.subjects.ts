/**
 * NATS subjects of drivers' authorization. assets-service owns id tokens; the request/reply subjects take a
 * `TenantScopedRequest<payload>` (principal.ts), scoped by `principal.tenantUuid` (another tenant's token is
 * not_found, as a missing one).
 */
export const AuthorizationSubjects = {
  /** CreateIdTokenPayload → IdTokenView; validation_failed already_exists for a known value and type. */
  createIdToken: 'assets.id-token.create.v1',
  /** CursorListAssetsPayload<IdTokenFilter> → CursorAssetPage<IdTokenView> */
  listIdTokens: 'assets.id-token.list.v1',
  /** AssetUuidPayload → IdTokenView */
  getIdToken: 'assets.id-token.get.v1',
  /** UpdateAssetPayload<UpdateIdTokenPayload> → IdTokenView */
  updateIdToken: 'assets.id-token.update.v1',
  /** AssetUuidPayload → {}; validation_failed has_dependents while other tokens name it as their group */
  deleteIdToken: 'assets.id-token.delete.v1',
  /** IdTokenImportPartPayload → {} (kept aside until the commit) */
  importIdTokensPart: 'assets.id-token.import-part.v1',
  /** IdTokenImportCommitPayload → IdTokenImportResult; validation_failed names each bad token `id_tokens[i].field` */
  importIdTokensCommit: 'assets.id-token.import-commit.v1',

  /**
   * request/reply, not tenant-scoped by a principal: IdTokenSnapshotRequest → IdTokenSnapshotPage. The ocpp-gateway
   * loads a tenant's tokens into its cache, page by page, on the tenant's first id token.
   */
  idTokenSnapshot: 'assets.id-token.snapshot.v1',
  /**
   * request/reply, not tenant-scoped by a principal: IdTokenRevisionsRequest → IdTokenRevisionsResponse. The gateway
   * compares the revisions of its cached tenants with these periodically, which catches a missed idTokensChanged.
   */
  idTokenRevisions: 'assets.id-token.revisions.v1',
  /**
   * request/reply, internal (command-service): IdTokensExistPayload → IdTokensExistResponse, which of the uuids a
   * send_local_list names are the tenant's tokens (another tenant's are not, as missing ones).
   */
  idTokensExist: 'assets.id-token.exist.v1',
  /**
   * request/reply, not tenant-scoped by a principal: LocalListPageRequest → LocalListPage. The ocpp-gateway asks it
   * when it delivers a send_local_list: the first page prepares the update (version, tokens, removals) and keeps it
   * with the command until the charge point's answer; the later pages read it.
   */
  localListPage: 'assets.local-list.page.v2',
  /**
   * request/reply, not tenant-scoped by a principal: LocalListAnsweredRequest → {}. The ocpp-gateway reports the charge
   * point's answer to a send_local_list before it replies about the command, so the next command of the controller
   * is prepared over the recorded list; the call-completed event records it too (whichever comes second changes
   * nothing).
   */
  localListAnswered: 'assets.local-list.answered.v2',
  /**
   * broadcast (core NATS, no queue group: every gateway instance hears it): IdTokensChangedBroadcast, after each
   * committed change of a tenant's tokens.
   */
  idTokensChanged: 'assets.id-token.changed.v1',
  /**
   * durable event: AuthorizationDecisionsEvent, the answers an ocpp-gateway gave about id tokens of one tenant,
   * gathered for a few milliseconds (published without holding any answer back); assets-service stores them.
   */
  decisionsMade: 'events.authorization.decisions-made.v1',
  /** ListAuthorizationDecisionsPayload → AuthorizationDecisionPage */
  listDecisions: 'assets.authorization-decision.list.v1',
} as const;

/** The subjects the api-gateway forwards HTTP requests to. */
export const AUTHORIZATION_API_SUBJECTS = [
  AuthorizationSubjects.createIdToken,
  AuthorizationSubjects.listIdTokens,
  AuthorizationSubjects.getIdToken,
  AuthorizationSubjects.updateIdToken,
  AuthorizationSubjects.deleteIdToken,
  AuthorizationSubjects.importIdTokensPart,
  AuthorizationSubjects.importIdTokensCommit,
  AuthorizationSubjects.listDecisions,
];
