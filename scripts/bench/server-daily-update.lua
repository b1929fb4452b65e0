-- wrk: POST /api/age/daily-update, each request for an account and day that has none yet, so that
-- every answer should be 200. TOKENS names a file with one account token per line; request n of
-- thread t takes the (n * threads + t)-th (account, day) pair: accounts first, then the next day.
-- DAY_OFFSET (default 0) moves the first day, so that runs side by side never take the same pair.
local threads = 0

function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

function init(args)
  tokens = {}
  for line in io.lines(os.getenv("TOKENS")) do tokens[#tokens + 1] = line end
  thread_count = tonumber(os.getenv("THREADS"))
  count = 0
  start = os.time({ year = 2030, month = 1, day = 1, hour = 12 }) + tonumber(os.getenv("DAY_OFFSET") or "0") * 86400
end

function request()
  local n = count * thread_count + id
  count = count + 1
  local account = n % #tokens + 1
  local day = math.floor(n / #tokens)
  local now = os.date("!%Y-%m-%dT12:00:00Z", start + day * 86400)
  return wrk.format("POST", "/api/age/daily-update", {
    ["Authorization"] = "Bearer " .. tokens[account],
    ["X-MorningProof-Now"] = now,
    ["Content-Type"] = "application/json",
  }, '{"metrics": {"steps": 8012, "sleepHours": 7.5, "mood": "good"}, "score": 82}')
end
