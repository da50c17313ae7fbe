"""Several members: PostgreSQL, Redis, leases, takeovers, faults."""
