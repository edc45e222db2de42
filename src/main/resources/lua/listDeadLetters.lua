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
-- @include lib/rankAfter
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

local afterTime, afterId = ARGV[1], ARGV[2]
local limit, wanted, budget = tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
local rank = 0
if afterTime ~= '-inf' then rank = rankAfter(KEYS[2], afterTime, afterId) end

local result = { 0, afterTime, afterId }
local found, examined = 0, 0
while found < limit and examined < budget do
  local page = redis.call('ZRANGE', KEYS[2], rank, rank + math.min(100, budget - examined) - 1, 'WITHSCORES')
  if #page == 0 then
    result[1] = 1
    break
  end
  for i = 1, #page, 2 do
    local id, deadAt = page[i], tonumber(page[i + 1])
    examined, rank = examined + 1, rank + 1
    result[2], result[3] = deadAt, id
    local record = redis.call('HGET', KEYS[1], id)
    if record then
      local reason, attempts, target = summaryOf(record)
      if wanted == '' or reason == wanted then
        result[#result + 1] = id
        result[#result + 1] = deadAt
        result[#result + 1] = #record
        result[#result + 1] = reason
        result[#result + 1] = attempts
        result[#result + 1] = target
        found = found + 1
        if found == limit then return result end
      end
    end
  end
end
return result
