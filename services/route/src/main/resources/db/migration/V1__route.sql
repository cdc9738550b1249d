-- One bus route as dispatched: immutable; a re-dispatch is a new version of the same id.
CREATE TABLE route (
  id          BIGINT       NOT NULL AUTO_INCREMENT,
  office      VARCHAR(64)  NOT NULL,
  name        VARCHAR(200) NOT NULL,
  bus         VARCHAR(64)  NULL,
  version     INT          NOT NULL DEFAULT 1,
  point_count INT          NOT NULL,
  created_by  VARCHAR(64)  NOT NULL,
  created_at  TIMESTAMP(6) NOT NULL,
  PRIMARY KEY (id),
  KEY route_office (office, id)
) ENGINE = InnoDB;

-- The stops the bus serves, in order (seed 002: at most 15 riders, so a handful of stops).
CREATE TABLE stop (
  route_id BIGINT       NOT NULL,
  seq      INT          NOT NULL,
  name     VARCHAR(200) NOT NULL,
  lat      DOUBLE       NOT NULL,
  lng      DOUBLE       NOT NULL,
  PRIMARY KEY (route_id, seq),
  CONSTRAINT stop_route FOREIGN KEY (route_id) REFERENCES route (id) ON DELETE CASCADE
) ENGINE = InnoDB;

-- 15-20k points per route. The primary key is InnoDB's clustered index: one route's points sit together in seq
-- order, so reading a route is one range scan in key order (no sort, no secondary-index lookups).
CREATE TABLE route_point (
  route_id BIGINT NOT NULL,
  seq      INT    NOT NULL,
  lat      DOUBLE NOT NULL,
  lng      DOUBLE NOT NULL,
  PRIMARY KEY (route_id, seq),
  CONSTRAINT route_point_route FOREIGN KEY (route_id) REFERENCES route (id) ON DELETE CASCADE
) ENGINE = InnoDB;
