/** A session user for unit tests; override what the test is about. */
import type { Permission, Role, SessionUser } from '@dart/contracts';

export function sessionUser(options: { roles?: Role[]; permissions?: Permission[]; tier?: SessionUser['client_tier'] } = {}): SessionUser {
  return {
    name: 'Demo Capital',
    user_info: {
      first_name: 'Arjun',
      last_name: 'Mehta',
      email: 'dealer@demo.dart',
      mobile: '9876500001',
      roles: options.roles ?? ['clientdealer'],
      unique_id: 'u-1',
      id: 'user-1',
      single_screen_waitlist_joined: false,
      has_accepted_chat_terms: true,
      user_security_preferences: [],
      suprsend_subscriber_id: 'sub-1',
    },
    user_accounts: [],
    permissions: options.permissions ?? [
      'inventory.has_inventory_access',
      'finstruments.has_security_data_access',
      'client.view_client',
      'client.can_trade',
    ],
    client_id: 'client-1',
    client_type: 'CORP',
    client_tier: options.tier ?? 'PREMIUM',
    allowed_exchanges: ['NSE', 'BSE'],
    allowed_reporting_exchanges: ['NSE', 'BSE'],
    nsccl_credentials: false,
    iccl_credentials: false,
    nsccl_name: null,
    iccl_name: null,
    is_broker: false,
    has_brokers: false,
    trades_on_books: true,
    rfq_exchanges: ['NSE'],
    stp_exchanges: [],
  };
}
