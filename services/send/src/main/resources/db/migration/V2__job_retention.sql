-- Finished jobs are deleted after perflab.send.delivery.retention; this index finds them without a scan.
CREATE INDEX ix_job_finished ON delivery_job (status, finished_at);
