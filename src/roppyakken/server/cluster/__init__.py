"""Several servers as one: the Redis link, leases, the bus between members, shared limits."""
