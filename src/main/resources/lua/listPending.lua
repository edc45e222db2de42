--[[
  listPending: one page of a slot's pending messages in due order, for the admin API: id, due
  time, attempts, size and target of each, never the body. Changes nothing.

  Why it is safe: read-only, and bounded: one call examines at most ARGV[6] messages, so a
  target filter that matches little cannot stall Redis; the caller goes on from the position
  returned. The target is read from the envelope's head, without copying its body (lib/expandNames:
  the stored form's target code, or the text of the wire form and of versions 1 and 2); an envelope
  it cannot read has target ''.

  KEYS[1] due set   ZSET  member = message id, score = due time (epoch ms)
  KEYS[2] payloads  HASH  field = message id, value = envelope in its stored form (lib/internNames)
  KEYS[3] attempts  HASH  field = message id, value = failed delivery attempts so far
  KEYS[4] names     HASH  the slot's interned targets and origin stems (lib/expandNames)

  ARGV[1] start after this due time (epoch ms), or '-inf' to start at the first message
  ARGV[2] ... and, among messages due at exactly ARGV[1], after this id ('' : none skipped)
  ARGV[3] only messages due before this time (epoch ms, exclusive), or '+inf'
  ARGV[4] at most this many messages
  ARGV[5] only messages for this target ('' for every target)
  ARGV[6] examine at most this many messages

  Returns: { finished, lastDue, lastId, id1, due1, attempts1, size1, target1, id2, ... }
    finished         1 when the slot has nothing more in range after the last examined message
    lastDue, lastId  position of the last message examined (ARGV[1], ARGV[2] if none): a next
                     call starting there misses nothing
    size             bytes the envelope takes in Redis (its stored form)
]]
-- @include lib/rankAfter
-- @include lib/expandNames
local names = namesExpander(KEYS[4])

local afterDue, afterId = ARGV[1], ARGV[2]
local before = ARGV[3]
local limit, wanted, budget = tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6])
local rank = 0
if afterDue ~= '-inf' then rank = rankAfter(KEYS[1], afterDue, afterId) end

local result = { 0, afterDue, afterId }
local found, examined = 0, 0
while found < limit and examined < budget do
  local page = redis.call('ZRANGE', KEYS[1], rank, rank + math.min(100, budget - examined) - 1, 'WITHSCORES')
  if #page == 0 then
    result[1] = 1
    break
  end
  for i = 1, #page, 2 do
    local id, due = page[i], tonumber(page[i + 1])
    if before ~= '+inf' and due >= tonumber(before) then
      result[1] = 1
      return result
    end
    examined, rank = examined + 1, rank + 1
    result[2], result[3] = due, id
    local envelope = redis.call('HGET', KEYS[2], id)
    if envelope then
      local target = names.target(envelope)
      if wanted == '' or target == wanted then
        result[#result + 1] = id
        result[#result + 1] = due
        result[#result + 1] = tonumber(redis.call('HGET', KEYS[3], id) or 0)
        result[#result + 1] = #envelope
        result[#result + 1] = target
        found = found + 1
        if found == limit then return result end
      end
    end
  end
end
return result
