--[[
  listDeadLetters: one page of a slot's dead letters, oldest first, for the admin API: id, time,
  size, reason, attempts and target of each, never the body. Changes nothing.

  Why it is safe: read-only, and bounded: one call examines at most ARGV[5] records, so a reason
  filter that matches little cannot stall Redis; the caller goes on from the position returned.
  The summary is read from the record's header (DeadLetterCodec version 1: magic 0xDE, version 1,
  uint16 length + reason, uint16 length + detail, int32 attempts, int32 envelope length, then the
  envelope in the wire form, whose target lib/envelopeTarget reads); a record it cannot read has
  reason '' and target ''.

  KEYS[1] dead letters       HASH  field = message id, value = dead-letter record bytes
  KEYS[2] dead-letter index  ZSET  member = message id, score = time it was dead-lettered (epoch ms)

  ARGV[1] start after this time (epoch ms), or '-inf' to start at the oldest record
  ARGV[2] ... and, among records of exactly that time, after this id ('' : none skipped)
  ARGV[3] at most this many records
  ARGV[4] only records with this reason code ('' for every reason)
  ARGV[5] examine at most this many records

  Returns: { finished, lastTime, lastId, id1, deadAt1, size1, reason1, attempts1, target1, id2, ... }
    finished           1 when the slot has nothing more after the last examined record
    lastTime, lastId   position of the last record examined (ARGV[1], ARGV[2] if none): a next
                       call starting there misses nothing
]]
-- @include lib/scanFrom
-- @include lib/envelopeTarget

local function summaryOf(record)
  if #record < 16 or string.byte(record, 1) ~= 0xDE or string.byte(record, 2) ~= 1 then return '', 0, '' end
  local ok, reason, attempts, target = pcall(function()
    local reasonLength = struct.unpack('>H', record, 3)
    local reasonCode = string.sub(record, 5, 4 + reasonLength)
    local at = 5 + reasonLength
    at = at + 2 + struct.unpack('>H', record, at)
    local attemptCount = struct.unpack('>i4', record, at)
    return reasonCode, attemptCount, envelopeTarget(record, at + 8) or ''
  end)
  if ok then return reason, attempts, target end
  return '', 0, ''
end

local wanted = ARGV[4]

-- exclusive in every slot: a dead letter's id is in one slot only (ListPosition)
return scanFrom(KEYS[2], ARGV[1], ARGV[2], false, '+inf', tonumber(ARGV[3]), tonumber(ARGV[5]), function(id, deadAt)
  local record = redis.call('HGET', KEYS[1], id)
  if not record then return nil end
  local reason, attempts, target = summaryOf(record)
  if wanted ~= '' and reason ~= wanted then return nil end
  return { id, deadAt, #record, reason, attempts, target }
end)
