import MorningProofTestSupport
import Testing

/// The check behind the skips: inside CI (MORNINGPROOF_REQUIRE_POSTGRES=1) a missing server is a failure.
@Suite struct PostgresPresenceTests {
    @Test(.enabled(if: TestPostgres.required, "MORNINGPROOF_REQUIRE_POSTGRES is not 1"))
    func postgresIsThereWhenRequired() {
        #expect(
            TestPostgres.isAvailable,
            "MORNINGPROOF_REQUIRE_POSTGRES=1 but MORNINGPROOF_TEST_POSTGRES_URL is unset or bad: run inside scripts/with-postgres"
        )
    }
}
