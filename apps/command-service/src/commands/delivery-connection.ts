import { InjectDataSource } from '@nestjs/typeorm';

/** The DataSource (own pool) of delivery and outcomes; see CommandsModule. */
export const DELIVERY_CONNECTION = 'delivery';

/** Injects the delivery DataSource. */
export const InjectDeliveryDataSource = (): ParameterDecorator => InjectDataSource(DELIVERY_CONNECTION);
