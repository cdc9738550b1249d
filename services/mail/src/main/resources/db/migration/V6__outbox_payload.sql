-- An outbox row carries every recipient twice with read receipts (the lists and each one's key): 300 recipients of up
-- to 254 characters pass TEXT's 65,535 bytes, and such a send was a 500 from the INSERT. MEDIUMTEXT holds any send the
-- API accepts; the table only holds rows of the last day (perflab.mail.relay.retention).
ALTER TABLE outbox MODIFY payload MEDIUMTEXT NOT NULL;
