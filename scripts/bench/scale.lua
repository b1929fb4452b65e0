-- wrk: requests spread at random over every account of scripts/bench/scale's database.
-- TOKENS names a file with one line per account: its token, then its habits' ids. ENDPOINT is
-- status (GET /api/status), summary (GET /api/stats/summary), entry (PUT one of the account's
-- habits' entries/today, done or skipped at random, so that most requests change the day) or warm
-- (GET /api/status of every account in turn, the threads taking turns: the warm-up). NOW
-- is the instant every request acts at (X-MorningProof-Now).
local accounts = {}
for line in io.lines(os.getenv("TOKENS")) do
  local fields = {}
  for field in line:gmatch("%S+") do fields[#fields + 1] = field end
  if #fields > 1 then accounts[#accounts + 1] = fields end
end
local endpoint = os.getenv("ENDPOINT")
local now = os.getenv("NOW")

local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("number", threads)
end

local sent = 0
function init(args)
  math.randomseed(os.time() * 100 + (number or 0))
end

function request()
  local account = accounts[math.random(#accounts)]
  if endpoint == "warm" then
    -- THREADS: how many threads wrk runs (each Lua state counts only itself).
    account = accounts[(sent * tonumber(os.getenv("THREADS") or 1) + (number or 1) - 1) % #accounts + 1]
    sent = sent + 1
  end
  local headers = { ["Authorization"] = "Bearer " .. account[1], ["X-MorningProof-Now"] = now }
  if endpoint == "status" or endpoint == "warm" then
    return wrk.format("GET", "/api/status", headers)
  elseif endpoint == "summary" then
    return wrk.format("GET", "/api/stats/summary", headers)
  end
  headers["Content-Type"] = "application/json"
  local habit = account[math.random(2, #account)]
  local status = math.random(2) == 1 and "done" or "skipped"
  return wrk.format("PUT", "/api/habits/" .. habit .. "/entries/today", headers, '{"status": "' .. status .. '"}')
end
