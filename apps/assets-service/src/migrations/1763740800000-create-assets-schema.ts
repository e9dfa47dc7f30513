import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Locations, the facility-type catalogue, controllers, plugs, sensors and the event outbox.
 *
 * Every row carries `tenant_uuid`, and every reference is a composite foreign key on (tenant_uuid, uuid), so an asset
 * can only ever point at an asset of its own tenant. ON DELETE follows the delete rules: a location with controllers
 * cannot go (RESTRICT); a controller takes its plugs and attached sensors with it (CASCADE); a location takes its own
 * sensors and facility-type links with it (CASCADE). Indexes start with tenant_uuid and fit the list filters and sorts.
 */
export class CreateAssetsSchema1763740800000 implements MigrationInterface {
  name = 'CreateAssetsSchema1763740800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE assets.facility_types (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        name varchar(100) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT facility_types_tenant_uuid_key UNIQUE (tenant_uuid, uuid)
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX facility_types_tenant_name_key ON assets.facility_types (tenant_uuid, lower(name))`,
    );

    await queryRunner.query(`
      CREATE TABLE assets.locations (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        name varchar(200) NOT NULL,
        status varchar(32) NOT NULL
          CHECK (status IN ('in_questioning', 'planned', 'in_construction', 'active', 'inactive', 'decommissioned')),
        street varchar(200),
        house_number varchar(20),
        postal_code varchar(20),
        city varchar(100),
        district varchar(100),
        rural_district varchar(100),
        country_code char(3) CHECK (country_code ~ '^[A-Z]{3}$'),
        latitude numeric CHECK (latitude BETWEEN -90 AND 90),
        longitude numeric CHECK (longitude BETWEEN -180 AND 180),
        height numeric(8, 2),
        operator varchar(200),
        support_hotline varchar(16) CHECK (support_hotline ~ '^\\+[1-9][0-9]{6,14}$'),
        publish boolean NOT NULL DEFAULT false,
        identifier varchar(100),
        directions text,
        description text,
        comment text,
        comment_usage_agreement text,
        website varchar(2048),
        partner varchar(200),
        accounter varchar(200),
        level_measurement varchar(200),
        network_carrier varchar(200),
        available_power varchar(200),
        additional_conditions text,
        max_standing_time varchar(200),
        contract_id integer CHECK (contract_id >= 0),
        modification_date date NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT locations_tenant_uuid_key UNIQUE (tenant_uuid, uuid)
      )`);
    await queryRunner.query(
      `CREATE INDEX locations_tenant_created_idx ON assets.locations (tenant_uuid, created_at, uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX locations_tenant_name_idx ON assets.locations (tenant_uuid, name, uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX locations_tenant_status_idx ON assets.locations (tenant_uuid, status)`,
    );
    await queryRunner.query(`CREATE INDEX locations_tenant_city_idx ON assets.locations (tenant_uuid, city)`);
    await queryRunner.query(
      `CREATE INDEX locations_tenant_country_postal_idx ON assets.locations (tenant_uuid, country_code, postal_code)`,
    );
    await queryRunner.query(
      `CREATE INDEX locations_tenant_identifier_idx ON assets.locations (tenant_uuid, identifier)`,
    );

    await queryRunner.query(`
      CREATE TABLE assets.location_facility_types (
        tenant_uuid uuid NOT NULL,
        location_uuid uuid NOT NULL,
        facility_type_uuid uuid NOT NULL,
        PRIMARY KEY (location_uuid, facility_type_uuid),
        FOREIGN KEY (tenant_uuid, location_uuid) REFERENCES assets.locations (tenant_uuid, uuid) ON DELETE CASCADE,
        FOREIGN KEY (tenant_uuid, facility_type_uuid) REFERENCES assets.facility_types (tenant_uuid, uuid) ON DELETE RESTRICT
      )`);
    await queryRunner.query(
      `CREATE INDEX location_facility_types_type_idx ON assets.location_facility_types (tenant_uuid, facility_type_uuid)`,
    );

    await queryRunner.query(`
      CREATE TABLE assets.controllers (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        location_uuid uuid NOT NULL,
        name varchar(200) NOT NULL,
        ocpp_identity varchar(48) NOT NULL,
        ocpp_password_hash varchar(255),
        security_profile smallint NOT NULL CHECK (security_profile BETWEEN 0 AND 3),
        connection_status varchar(16) NOT NULL DEFAULT 'offline' CHECK (connection_status IN ('online', 'offline')),
        connection_id varchar(100),
        connection_changed_at timestamptz,
        ocpp_protocol varchar(16),
        last_seen_at timestamptz,
        vendor varchar(255),
        model varchar(255),
        serial_number varchar(255),
        firmware_version varchar(255),
        booted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT controllers_tenant_uuid_key UNIQUE (tenant_uuid, uuid),
        FOREIGN KEY (tenant_uuid, location_uuid) REFERENCES assets.locations (tenant_uuid, uuid) ON DELETE RESTRICT
      )`);
    // OCPP identities compare case-insensitively.
    await queryRunner.query(
      `CREATE UNIQUE INDEX controllers_tenant_identity_key ON assets.controllers (tenant_uuid, lower(ocpp_identity))`,
    );
    await queryRunner.query(
      `CREATE INDEX controllers_tenant_location_idx ON assets.controllers (tenant_uuid, location_uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX controllers_tenant_created_idx ON assets.controllers (tenant_uuid, created_at, uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX controllers_tenant_name_idx ON assets.controllers (tenant_uuid, name, uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX controllers_tenant_connection_idx ON assets.controllers (tenant_uuid, connection_status)`,
    );

    await queryRunner.query(`
      CREATE TABLE assets.plugs (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        controller_uuid uuid NOT NULL,
        connector_id integer NOT NULL CHECK (connector_id >= 1),
        evse_id integer NOT NULL CHECK (evse_id >= 1),
        name varchar(200),
        standard varchar(32) NOT NULL,
        power_type varchar(16) NOT NULL CHECK (power_type IN ('ac_1_phase', 'ac_2_phase', 'ac_3_phase', 'dc')),
        max_power_kw numeric(8, 2) NOT NULL CHECK (max_power_kw > 0),
        status varchar(50) NOT NULL DEFAULT 'unknown',
        error_code varchar(50),
        status_updated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT plugs_tenant_uuid_key UNIQUE (tenant_uuid, uuid),
        CONSTRAINT plugs_controller_connector_key UNIQUE (tenant_uuid, controller_uuid, connector_id),
        FOREIGN KEY (tenant_uuid, controller_uuid) REFERENCES assets.controllers (tenant_uuid, uuid) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX plugs_tenant_created_idx ON assets.plugs (tenant_uuid, created_at, uuid)`,
    );
    await queryRunner.query(`CREATE INDEX plugs_tenant_name_idx ON assets.plugs (tenant_uuid, name, uuid)`);
    await queryRunner.query(`CREATE INDEX plugs_tenant_status_idx ON assets.plugs (tenant_uuid, status)`);
    await queryRunner.query(`CREATE INDEX plugs_tenant_standard_idx ON assets.plugs (tenant_uuid, standard)`);

    await queryRunner.query(`
      CREATE TABLE assets.sensors (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        location_uuid uuid,
        controller_uuid uuid,
        kind varchar(32) NOT NULL,
        name varchar(200) NOT NULL,
        serial_number varchar(100),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sensors_tenant_uuid_key UNIQUE (tenant_uuid, uuid),
        CONSTRAINT sensors_one_parent_check CHECK ((location_uuid IS NULL) <> (controller_uuid IS NULL)),
        FOREIGN KEY (tenant_uuid, location_uuid) REFERENCES assets.locations (tenant_uuid, uuid) ON DELETE CASCADE,
        FOREIGN KEY (tenant_uuid, controller_uuid) REFERENCES assets.controllers (tenant_uuid, uuid) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX sensors_tenant_location_idx ON assets.sensors (tenant_uuid, location_uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX sensors_tenant_controller_idx ON assets.sensors (tenant_uuid, controller_uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX sensors_tenant_created_idx ON assets.sensors (tenant_uuid, created_at, uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX sensors_tenant_name_idx ON assets.sensors (tenant_uuid, name, uuid)`,
    );
    await queryRunner.query(`CREATE INDEX sensors_tenant_kind_idx ON assets.sensors (tenant_uuid, kind)`);

    await queryRunner.query(`
      CREATE TABLE assets.outbox_events (
        event_id uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        subject varchar(200) NOT NULL,
        envelope jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX outbox_events_created_idx ON assets.outbox_events (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'outbox_events',
      'sensors',
      'plugs',
      'controllers',
      'location_facility_types',
      'locations',
      'facility_types',
    ]) {
      await queryRunner.query(`DROP TABLE IF EXISTS assets.${table}`);
    }
  }
}
