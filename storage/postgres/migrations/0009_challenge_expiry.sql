-- A challenge lapses when nobody answers it: its next_deadline is when. Challenges open
-- before this are due at once; the job's first look sets their expiry from creation.
UPDATE games SET next_deadline = 0 WHERE status = 'challenge';
