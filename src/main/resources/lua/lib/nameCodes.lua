--[[
  nameCodes (a fragment, included by lib/internNames, lib/expandNames and lib/memberIds): the slot's names
  hash (store/Keys.names) as one table per script call, shared by everything the call converts (payloads
  and message ids alike), so that each name, code and the tag is read from Redis at most once per call.

  The names hash is append-only: n:<name> = code, c:<code> = name, next = the last code handed out,
  tag = a byte drawn from Redis's clock when the hash was created, stems = how many codes lib/memberIds
  handed out for message id stems (it keeps that number bounded). A code is never reassigned or deleted.

    local codes = nameCodes(namesKey)   one per script call
    codes.key                 the names hash's key
    codes.tag()               the hash's tag; false when it has none (it was never written, or was lost)
    codes.ownTag()            the hash's tag, drawn and stored first when it has none (scripts that write)
    codes.codeOf(name)        the name's code; a name without one gets the next code (scripts that write)
    codes.knownCode(name)     the name's code, or false when it has none: never writes
    codes.nameOf(code)        the name with that code, or false
]]
local function nameCodes(namesKey)
  local byName, byCode = {}, {}
  local tag  -- nil until read; false when the hash has none

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

  function codes.codeOf(name)
    local code = codes.knownCode(name)
    if not code then
      code = redis.call('HINCRBY', namesKey, 'next', 1)
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
