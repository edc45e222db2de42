--[[
  listGroup: one page of a group's messages in one slot, in due order (the group index's), from a position, as listPending
  pages the due set.

  Why it is safe: read-only, and bounded: one call examines at most ARGV[5] index entries (lib/scanFrom). An index entry
  whose message is neither pending nor in flight (left by a path that did not clean it) is skipped, never listed.

  KEYS[1] group index prefix  STRING prefix: the key of a group's index is this followed by the group name (lib/groups)
  KEYS[2] due set        ZSET  member = message member (lib/memberIds), score = due time (epoch ms)
  KEYS[3] in-flight set  ZSET  member = message member, score = lease deadline (epoch ms)
  KEYS[4] names          HASH  the slot's interned targets, origin stems and id stems (lib/nameCodes)

  ARGV[1] group name
  ARGV[2] start after this due time (epoch ms), or '-inf' to start at the first member
  ARGV[3] ... and, among members due at exactly ARGV[2], after this member ('' : none skipped)
  ARGV[4] at most this many messages
  ARGV[5] examine at most this many index entries
  ARGV[6] 1 to start at the member ARGV[3] itself, if it is there (the position is in an earlier slot)

  Returns: { finished, lastDue, lastMember, id1, due1, inFlight1, member1, id2, ... }
    finished             1 when the slot's index has nothing after the last entry examined
    lastDue, lastMember  position of the last entry examined (ARGV[2], ARGV[3] if none)
    id                   the message id (false when its member cannot be read back: lib/memberIds)
    due                  its due time in the group's index (epoch ms)
    inFlight             1 when it is being delivered, 0 when pending
    member               its member, for the position
]]
-- @include lib/scanFrom
-- @include lib/memberIds
local ids = memberIds(nameCodes(KEYS[4]))
return scanFrom(KEYS[1] .. ARGV[1], ARGV[2], ARGV[3], ARGV[6] == '1', '+inf', tonumber(ARGV[4]), tonumber(ARGV[5]), function(member, due)
  if redis.call('ZSCORE', KEYS[3], member) then return { ids.toId(member) or false, due, 1, member } end
  if redis.call('ZSCORE', KEYS[2], member) then return { ids.toId(member) or false, due, 0, member } end
  return nil
end)
