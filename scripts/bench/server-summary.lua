-- wrk: GET /api/stats/summary for the owner, a year of daily updates behind it.
-- TOKEN and NOW come from the environment (scripts/bench/server sets them).
wrk.method = "GET"
wrk.path = "/api/stats/summary"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
wrk.headers["X-MorningProof-Now"] = os.getenv("NOW")
