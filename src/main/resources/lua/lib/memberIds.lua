--[[
  memberIds (a fragment, included by the scripts that take or return message ids): converts between a
  message id, what users and the bridge see, and its member, what the slot's keys hold (members of the due,
  in-flight, delivered and cancelled sets; fields of the payloads and attempts hashes). The
  bridge's default Kafka ids, <topic>@<topic id>-<partition>-<offset> (delay.inbound@<22 characters>-0-1234567:
  46 bytes, in a 56-byte allocation each of the two times Redis keeps it), become a packed member of 7 bytes
  (a 16-byte allocation: up to 14 bytes fit), the stem (topic and topic id) interned in the slot's names hash
  like targets and origin stems (lib/nameCodes). Dead letters stay keyed by the id.

  A packed member, byte by byte (a varint is unsigned LEB128, lib/varint):
    byte 0   0xFF   marks a packed member: UTF-8 text (every id, a Java String) never holds this byte, so
                    an id kept verbatim is never taken for a packed member
    byte 1   tag    the names hash's tag when the member was packed: a member packed into a names hash
                    that was lost since is not read with the codes of its successor
    varint          code of the stem, the id without its last two numbers (names hash: n:<stem> = code)
    varint          partition, the first of the two numbers
    varint          offset, the last number
  e.g. delay.inbound-0-1234567, stem delay.inbound with code 3: FF <tag> 03 00 87 AD 4B.

  An id is packed when it is <stem>-<partition>-<offset> with a stem of at least one byte and two decimal
  numbers without a leading zero (0 itself is one), the partition of at most 10 digits and the offset of at
  most 15 (so that Lua's doubles keep them exact), and its stem has a code or gets one. Any other id is its
  own member, verbatim, and reads back as itself (only a packed member starts with 0xFF).

  Stems get codes here up to 1,000 per slot (the names hash's stems field counts them; codes are never
  freed). Topics are few; an id scheme whose stems differ from message to message (order-<n>-1-2) would
  otherwise add two fields to the names hash per message, forever. Once the bound, or the names hash's own
  cap (lib/nameCodes), is reached, ids with a new stem stay verbatim; ids whose stem has a code are still
  packed. An id's member therefore depends on the names hash when it was written: an id kept verbatim while
  the hash was full packs once its stem gets a code (the cap raised), which is why lookups try both.

    local ids = memberIds(codes)   one per script call, codes = nameCodes(namesKey), shared with the
                                   payload conversions (lib/internNames, lib/expandNames)
    ids.toMember(id)       the member to store the id under, for scripts that write: a stem without a code
                           gets one (within the bound and the names cap, codes.capAt); the names hash gets
                           its tag if it has none
    ids.lookupMembers(id)  every member the id may be held under, without writing anything: the member
                           toMember would return, then the id itself when that differs (kept verbatim while
                           the names hash was full); just the id when the stem has no code (no packed member
                           with it can exist). Scripts that look an id up look under each, in this order
    ids.latestScore(key, members)  the latest score any of members has in the sorted set key, or false
    ids.toId(member)       the id; nil when the member is packed but cannot be read: a tag other than the
                           names hash's or a code it lacks (the hash was lost or replaced), or damage.
                           toId(toMember(id)) == id for every id
]]
-- @include lib/varint
-- @include lib/nameCodes
local function memberIds(codes)
  local MAX_STEM_CODES = 1000
  local MAX_PARTITION, MAX_OFFSET = 9999999999, 999999999999999
  local stemCodesLeft  -- read when the first new stem needs a code

  local function isNumber(digits, maxDigits)
    return #digits <= maxDigits and (#digits == 1 or string.byte(digits, 1) ~= 48)
  end

  -- stem, partition and offset of an id that can be packed; nil for any other
  local function partsOf(id)
    local stem, partition, offset = string.match(id, '^(.+)%-(%d+)%-(%d+)$')
    if stem and isNumber(partition, 10) and isNumber(offset, 15) then
      return stem, tonumber(partition), tonumber(offset)
    end
    return nil
  end

  local function packed(tag, stemCode, partition, offset)
    return string.char(0xFF, tag) .. varint(stemCode) .. varint(partition) .. varint(offset)
  end

  local function newStemCode(stem)
    if stemCodesLeft == nil then
      stemCodesLeft = MAX_STEM_CODES - (tonumber(redis.call('HGET', codes.key, 'stems')) or 0)
    end
    if stemCodesLeft <= 0 then return false end
    local code = codes.codeOf(stem)
    if not code then return false end
    stemCodesLeft = stemCodesLeft - 1
    redis.call('HINCRBY', codes.key, 'stems', 1)
    return code
  end

  -- a varint as varint() writes it (no high group of zeros), and the position after it; nil for any other
  local function readShortest(member, at)
    local value, after = readVarint(member, at)
    if value and after - at > 1 and string.byte(member, after - 1) == 0 then return nil end
    return value, after
  end

  local ids = {}

  function ids.toMember(id)
    local stem, partition, offset = partsOf(id)
    if not stem then return id end
    local stemCode = codes.knownCode(stem) or newStemCode(stem)
    if not stemCode then return id end
    return packed(codes.ownTag(), stemCode, partition, offset)
  end

  function ids.lookupMembers(id)
    local stem, partition, offset = partsOf(id)
    if not stem then return { id } end
    local stemCode, tag = codes.knownCode(stem), codes.tag()
    if not stemCode or not tag then return { id } end
    return { packed(tag, stemCode, partition, offset), id }
  end

  function ids.latestScore(key, members)
    local latest = false
    for _, member in ipairs(members) do
      local score = tonumber(redis.call('ZSCORE', key, member))
      if score and (not latest or score > latest) then latest = score end
    end
    return latest
  end

  function ids.toId(member)
    if string.byte(member, 1) ~= 0xFF then return member end
    if string.byte(member, 2) ~= codes.tag() then return nil end
    local stemCode, at = readShortest(member, 3)
    local partition, offset
    if stemCode then partition, at = readShortest(member, at) end
    if partition then offset, at = readShortest(member, at) end
    if not offset or at ~= #member + 1 or partition > MAX_PARTITION or offset > MAX_OFFSET then return nil end
    local stem = codes.nameOf(stemCode)
    if not stem or stem == '' then return nil end
    return stem .. '-' .. string.format('%.0f', partition) .. '-' .. string.format('%.0f', offset)
  end

  return ids
end
