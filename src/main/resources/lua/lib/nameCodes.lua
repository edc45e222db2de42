--[[
  nameCodes (a fragment, included by lib/internNames, lib/expandNames and lib/memberIds): the slot's names
  hash (store/Keys.names) as one table per script call, shared by everything the call converts (payloads
  and message ids alike), so that each name, code and the tag is read from Redis at most once per call.

  The names hash is append-only: n:<name> = code, c:<code> = name, next = the last code handed out,
  tag = a byte drawn from Redis's clock when the hash was created, stems = how many codes lib/memberIds
  handed out for message id stems (it keeps that number bounded), bytes = the summed length of the names
  given codes (a field not yet written reads as 0). A code is never reassigned or deleted.

  The hash is capped: once it holds maxNames names, or a new name would take its names past maxBytes, a
  name without a code gets none (codeOf returns false), and the caller keeps the text itself (the wire form
  of a payload, an id verbatim). Producers choose targets and ids, so without the cap the hash would grow by
  every distinct one, forever.

    local codes = nameCodes(namesKey)   one per script call
    codes.key                 the names hash's key
    codes.tag()               the hash's tag; false when it has none (it was never written, or was lost)
    codes.ownTag()            the hash's tag, drawn and stored first when it has none (scripts that write)
    codes.capAt(maxNames, maxBytes)  the cap codeOf keeps (scripts that write set it before the first codeOf)
    codes.codeOf(name)        the name's code; a name without one gets the next code while the cap has room,
                              else false (scripts that write)
    codes.knownCode(name)     the name's code, or false when it has none: never writes
    codes.nameOf(code)        the name with that code, or false
]]
local function nameCodes(namesKey)
  local byName, byCode = {}, {}
  local tag  -- nil until read; false when the hash has none
  local maxNames, maxBytes  -- the cap, set by capAt
  local namesLeft, bytesLeft  -- room under the cap, read when the first name needs a code

  local codes = { key = namesKey }

  function codes.tag()
    if tag == nil then tag = tonumber(redis.call('HGET', namesKey, 'tag')) or false end
    return tag
  end

  function codes.ownTag()
    if not codes.tag() then
      -- a new names hash (or a lost one): a new tag, so that payloads and members interned into a lost one
      -- are not expanded with the new hash's codes
      tag = tonumber(redis.call('TIME')[2]) % 256
      redis.call('HSET', namesKey, 'tag', tag)
    end
    return tag
  end

  function codes.knownCode(name)
    local code = byName[name]
    if code == nil then
      code = tonumber(redis.call('HGET', namesKey, 'n:' .. name)) or false
      byName[name] = code
      if code then byCode[code] = name end
    end
    return code
  end

  function codes.capAt(names, bytes)
    maxNames, maxBytes = names, bytes
  end

  -- whether the cap has room for one more name of that length
  local function roomFor(name)
    if not maxNames then error('nameCodes: codeOf before capAt (the script passes the names cap)') end
    if namesLeft == nil then
      local held = redis.call('HMGET', namesKey, 'next', 'bytes')
      namesLeft = maxNames - (tonumber(held[1]) or 0)
      bytesLeft = maxBytes - (tonumber(held[2]) or 0)
    end
    return namesLeft >= 1 and bytesLeft >= #name
  end

  function codes.codeOf(name)
    local code = codes.knownCode(name)
    if not code then
      if not roomFor(name) then return false end
      namesLeft, bytesLeft = namesLeft - 1, bytesLeft - #name
      code = redis.call('HINCRBY', namesKey, 'next', 1)
      redis.call('HINCRBY', namesKey, 'bytes', #name)
      redis.call('HSET', namesKey, 'c:' .. code, name, 'n:' .. name, code)
      byName[name], byCode[code] = code, name
    end
    return code
  end

  function codes.nameOf(code)
    local name = byCode[code]
    if name == nil then
      name = redis.call('HGET', namesKey, 'c:' .. code) or false
      byCode[code] = name
      if name then byName[name] = code end
    end
    return name
  end

  return codes
end
