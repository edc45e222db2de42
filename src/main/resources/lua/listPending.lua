--[[
  listPending: one page of a slot's pending messages in due order, for the admin API: id, due
  time, attempts, size and target of each, never the body. Changes nothing.

  Why it is safe: read-only, and bounded: one call examines at most ARGV[6] messages, so a
  target filter that matches little cannot stall Redis; the caller goes on from the position
  returned. The target is read from the envelope's head, without copying its body (lib/expandNames:
  the stored form's target code, or the text of the wire form and of versions 1 and 2); an envelope
  it cannot read has target ''. Positions are members (lib/memberIds), in the due set's own order;
  the ids are expanded from them for display. With a group (ARGV[8]) the group's index is paged instead of the due
  set, so the cost follows the group's size, not the backlog's: its score is the due time as scheduled (a retry's
  backoff does not move it) and its entries that are not pending (in flight, or stale) are skipped. The group of each
  message is read from its envelope only when its flags byte says it has one (lib/groups). Parked messages (lib/parked) sit
  after all others in the due set's order, and are listed with their due time.

  KEYS[1] due set   ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[2] payloads  HASH  field = message member, value = envelope in its stored form (lib/internNames)
  KEYS[3] attempts  HASH  field = message member, value = failed delivery attempts so far
  KEYS[4] names     HASH  the slot's interned targets, origin stems and id stems (lib/nameCodes)
  KEYS[5] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)

  ARGV[1] start after this due time (epoch ms), or '-inf' to start at the first message
  ARGV[2] ... and, among messages due at exactly ARGV[1], after this member ('' : none skipped)
  ARGV[3] only messages due before this time (epoch ms, exclusive), or '+inf'
  ARGV[4] at most this many messages
  ARGV[5] only messages whose target matches this glob (lib/globMatch: '*' for any run of characters,
          no '*': that exact target), '' for every target
  ARGV[6] examine at most this many messages
  ARGV[7] 1 to start at the member ARGV[2] itself, if it is there (the position is in an earlier
          slot: members are packed with per-slot codes, so two slots can hold equal ones), 0 after it
  ARGV[8] only the messages of this group, paged from its index; '' for every message

  Returns: { finished, lastDue, lastMember, id1, due1, attempts1, size1, target1, member1, group1, id2, ... }
    finished             1 when the slot has nothing more in range after the last examined message
    lastDue, lastMember  position of the last message examined (ARGV[1], ARGV[2] if none): a next
                         call starting there misses nothing
    id                   the message id; nil when the member is packed and cannot be resolved
                         (lib/memberIds: the names hash was lost)
    size                 bytes the envelope takes in Redis (its stored form)
    member               the member as stored: its place in the listing
    group                its x-group (false when it has none)
]]
-- @include lib/scanFrom
-- @include lib/expandNames
-- @include lib/memberIds
-- @include lib/globMatch
-- @include lib/groups
-- @include lib/parked
local codes = nameCodes(KEYS[4])
local names = namesExpander(codes)
local ids = memberIds(codes)
local wanted = ARGV[5] ~= '' and globMatcher(ARGV[5]) or nil

local scanned = KEYS[1]
if ARGV[8] ~= '' then scanned = KEYS[5] .. ARGV[8] end

return scanFrom(scanned, ARGV[1], ARGV[2], ARGV[7] == '1', ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[6]), function(member, due)
  if scanned ~= KEYS[1] and not redis.call('ZSCORE', KEYS[1], member) then return nil end
  local envelope = redis.call('HGET', KEYS[2], member)
  if not envelope then return nil end
  local target = names.target(envelope)
  if wanted and not wanted(target) then return nil end
  return { ids.toId(member) or false, dueOfScore(due), tonumber(redis.call('HGET', KEYS[3], member) or 0), #envelope, target, member, groupOf(envelope) or false }
end)
