-- Route points each office stored per UTC day (perflab.route.quota.points-per-office): one POST may carry 50,000
-- points, and nothing bounded how many POSTs an office makes. A create adds its points with INSERT ... ON DUPLICATE
-- KEY UPDATE as the last statement of its own transaction and reads the sum back under the row lock: creates on any
-- number of replicas queue on their office's row only for the rest of their commit, none passes the limit, and a
-- refused create rolls back with its route. day leads the key, so purging old days is a range of the primary key.
CREATE TABLE point_quota (
  day    DATE        NOT NULL,
  -- compared exactly, as the caller's office is everywhere else
  office VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  points BIGINT      NOT NULL,
  PRIMARY KEY (day, office)
);
