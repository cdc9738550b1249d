-- An office's notes; read by id within the office.
CREATE TABLE note (
  id         BIGINT       NOT NULL AUTO_INCREMENT,
  office     VARCHAR(64)  NOT NULL,
  text       VARCHAR(500) NOT NULL,
  created_by VARCHAR(64)  NOT NULL,
  created_at TIMESTAMP(6) NOT NULL,
  PRIMARY KEY (id),
  KEY note_office (office, id)
) ENGINE = InnoDB;
