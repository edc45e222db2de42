--[[
  groups (a fragment): the group index, the one place that keeps it. A message with an x-group header (flag 0x40 of its
  envelope, EnvelopeCodec.FLAG_GROUPED) is a member of its slot's index of that group, a ZSET under the key
  <group index prefix><group name> (store/Keys.groupIndexPrefix): member = message member, score = due time as scheduled
  or rescheduled (a retry's backoff does not move it). A message without a group costs nothing here: its flags byte
  says so, and no key is touched.

    groupOf(payload)                        the group of an envelope in its stored or wire form; nil when it has
                                            none (flag 0x40 unset, the header missing, or not 1..256 bytes) or the
                                            bytes are not an envelope
    groupIndexAdd(prefix, group, member, due)   index the member (or move it to a new due time)
    groupIndexMove(prefix, group, member, due)  move an indexed member to a new due time; never adds one
    groupIndexRemove(prefix, group, member)     drop the member; the key goes with its last member
]]
-- @include lib/varint
local GROUPED = 0x40
local GROUP_HEADER = 'x-group'

local function groupOf(payload)
  if not payload then return nil end
  local first, second, third = string.byte(payload, 1, 3)
  if not second then return nil end
  local flags, at
  if second >= 0x80 then
    flags = second - 0x80
    local _, stemAt = readVarint(payload, 3)
    if not stemAt then return nil end
    local _, afterStem = readVarint(payload, stemAt)
    at = afterStem
  elseif first == 0xDB and second == 3 and third and third < 0x80 then
    flags = third
    local targetLength, targetAt = readVarint(payload, 4)
    if not targetLength then return nil end
    local stemLength, stemAt = readVarint(payload, targetAt + targetLength)
    if not stemLength then return nil end
    at = stemAt + stemLength
  end
  if not at or flags % 0x80 < GROUPED or flags % 0x04 < 0x02 then return nil end
  if flags % 0x20 >= 0x10 then -- origin number
    local _, afterNumber = readVarint(payload, at)
    at = afterNumber
  end
  if at and flags % 0x02 == 1 then -- key
    local length, keyAt = readVarint(payload, at)
    at = length and keyAt + length
  end
  if not at then return nil end
  local typed = flags % 0x08 >= 0x04
  local count
  count, at = readVarint(payload, at)
  if not count then return nil end
  for _ = 1, count do
    local nameLength, nameAt = readVarint(payload, at)
    if not nameLength then return nil end
    local name = string.sub(payload, nameAt, nameAt + nameLength - 1)
    at = nameAt + nameLength
    local format = 0
    if typed then
      format = string.byte(payload, at)
      at = at + 1
    end
    local lengthPlusOne, valueAt = readVarint(payload, at)
    if not lengthPlusOne then return nil end
    if name == GROUP_HEADER then
      if lengthPlusOne == 0 then return nil end
      local value = string.sub(payload, valueAt, valueAt + lengthPlusOne - 2)
      if format == 1 then
        -- an AMQP field value: a long string ('S') or byte array ('x'), a 4-byte length, then the bytes
        local kind = string.sub(value, 1, 1)
        if kind ~= 'S' and kind ~= 'x' then return nil end
        value = string.sub(value, 6)
      end
      if #value < 1 or #value > 256 then return nil end
      return value
    end
    at = valueAt + math.max(lengthPlusOne - 1, 0)
  end
  return nil
end

local function groupIndexAdd(prefix, group, member, due)
  redis.call('ZADD', prefix .. group, due, member)
end

local function groupIndexMove(prefix, group, member, due)
  redis.call('ZADD', prefix .. group, 'XX', due, member)
end

local function groupIndexRemove(prefix, group, member)
  redis.call('ZREM', prefix .. group, member)
end
