#!/usr/bin/env bash
# SQL-injection scan (RELIABILITY #22) with Debian's sqlmap against a running Dart on PostgreSQL,
# plus a positive control that must be detected. Not part of `npm test` (it takes ~10-20 minutes);
# run it before a release and record the result in the closing note.
#   sudo apt-get install -y sqlmap
#   bash scripts/security/sqlmap-scan.sh            # needs PostgreSQL at PG_ADMIN_URL
# Exit status: 0 when the control is found injectable and no Dart parameter is; 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."
PG_ADMIN_URL="${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
PORT="${SCAN_PORT:-3390}"
CONTROL_PORT=$((PORT + 1))
DB="dart_sqlmap_$(date +%s)"
OUT="$(mktemp -d /tmp/dart-sqlmap.XXXXXX)"
psql "$PG_ADMIN_URL" -qc "CREATE DATABASE $DB" >/dev/null
DB_URL="${PG_ADMIN_URL%/*}/$DB"

NODE_ENV=development PORT=$PORT DATABASE_URL="$DB_URL" DEMO_SEED=1 BOND_IMPORT=slice RATE_LIMIT_PER_MINUTE=1000000 \
  CREDENTIAL_RATE_PER_MINUTE=1000000 LOG_LEVEL=warn node --import tsx apps/server/src/index.ts >"$OUT/server.log" 2>&1 &
SERVER=$!
node scripts/security/injectable-control.mjs "$CONTROL_PORT" "$DB_URL" &
CONTROL=$!
cleanup() { kill $SERVER $CONTROL 2>/dev/null; wait 2>/dev/null; psql "$PG_ADMIN_URL" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null; }
trap cleanup EXIT
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$PORT/api/health" >/dev/null && break; sleep 1; done

token() {
  curl -s -X POST "http://127.0.0.1:$PORT/api/token/" -H 'content-type: application/json' \
    -d '{"email":"dealer@demo.dart","password":"Demo@12345"}' | node -e 'process.stdin.on("data",d=>process.stdout.write(JSON.parse(d).access))'
}
SQLMAP=(sqlmap --batch --level=2 --risk=1 --dbms=PostgreSQL --technique=BEUST --time-sec=2 --disable-coloring --flush-session --skip-waf --output-dir="$OUT/sqlmap")
failures=0
scan() { # name, method, url (with * marking injection points), JSON body or '', then extra sqlmap arguments
  local name=$1 method=$2 url=$3 data=$4; shift 4
  local log="$OUT/$name.log" auth
  auth="Authorization: Bearer $(token)"
  # The baseline request must succeed, or sqlmap would only ever see 4xx and prove nothing.
  local plain_url=${url//\*/} plain_data=${data//\*/} status
  status=$(curl -s -o /dev/null -w '%{http_code}' -X "$method" -H "$auth" -H 'content-type: application/json' \
    ${plain_data:+--data "$plain_data"} "$plain_url")
  if [[ ! $status =~ ^2 && $name != login ]]; then echo "NO BASELINE $name: $method $plain_url answered $status"; return 1; fi
  "${SQLMAP[@]}" -H "$auth" -H "Idempotency-Key: scan-key-1" --method="$method" -u "$url" ${data:+--data="$data"} "$@" >"$log" 2>&1
  if grep -qE "is vulnerable|sqlmap identified the following injection point" "$log"; then
    echo "INJECTABLE  $name  (see $log)"; return 1
  fi
  echo "clean       $name  ($(grep -A1 'HTTP error codes' "$log" | tail -1 | sed 's/^.*WARNING\] //'))"
}
control_log="$OUT/control.log"
"${SQLMAP[@]}" -u "http://127.0.0.1:$CONTROL_PORT/?isin=INE002A08534" -p isin >"$control_log" 2>&1
if grep -q "sqlmap identified the following injection point" "$control_log"; then echo "detected    positive control (as it must be)"; else echo "MISSED      positive control: the scan is not working"; failures=$((failures + 1)); fi

B="http://127.0.0.1:$PORT"
ISIN=INE040A08567
scan search GET "$B/api/finstruments/search/?searchKey=HDFC*&limit=20" '' || failures=$((failures + 1))
scan find-list POST "$B/api/finstruments/" '{"search":"HDFC*","ratings":["AAA*"],"sort":{"field":"isin","direction":"asc"},"pagination":{"page":1,"page_size":20}}' || failures=$((failures + 1))
scan market GET "$B/api/trade/d/market/?page=1*&page_size=20*&search=HDFC*" '' || failures=$((failures + 1))
scan market-bonds GET "$B/api/trade/finstrument/?page=1&search=HDFC*" '' || failures=$((failures + 1))
scan rfq GET "$B/api/eoi/rfq-quote/?search=INE*" '' || failures=$((failures + 1))
scan price POST "$B/api/v1/finstrument/$ISIN*/" '{"yield":0.072,"settlement_delta":1}' || failures=$((failures + 1))
scan bond GET "$B/api/finstrument/$ISIN*/" '' || failures=$((failures + 1))
FID=$(curl -s -H "Authorization: Bearer $(token)" "$B/api/finstrument/$ISIN/" | node -e 'process.stdin.on("data",d=>process.stdout.write(String(JSON.parse(d).id)))')
scan quote POST "$B/api/trade/eoi/" '{"finstrument_id":'"$FID"',"quantum":10,"quote_type":"BID*","yield_stored":0.072,"fixed_field":"yield","settlement_delta":1,"end_client_id":"desk-7*"}' || failures=$((failures + 1))
scan chat-search GET "$B/api/chatter/user/search?search_param=dealer*&page=1" '' || failures=$((failures + 1))
# Last: failed sign-ins throttle the e-mail they name (so a scanned address cannot sign in afterwards).
scan login POST "$B/api/token/" '{"email":"nobody@scan.dart*","password":"x*"}' --ignore-code=401 || failures=$((failures + 1))
echo "sqlmap logs: $OUT"
exit $((failures > 0))
