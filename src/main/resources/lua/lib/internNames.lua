--[[
  internNames (a fragment, included by the scripts that write a payload): turns an envelope from the
  wire form into the stored form, so that a payload carries two small codes instead of its target and
  origin stem (names that many messages share), and its size stays close to its body's.

  The two forms of an envelope of version 3 (store/EnvelopeCodec.java), byte by byte (offsets from 0); a varint is
  unsigned LEB128 (lib/varint):

    wire form: what the bridge writes and reads (script arguments and replies)
      byte 0    0xDB   magic
      byte 1    0x03   version 3
      byte 2    flags  (key, headers, typed headers, properties, origin number, tombstone)
      varint length, then that many bytes: the target, e.g. kafka:orders.expired
      varint length, then that many bytes: the origin stem, e.g. kafka:delay.inbound/0@
      the rest: origin number (e.g. the Kafka offset), key, headers, properties, body

    stored form: what the payloads hash holds
      byte 0    tag    the names hash's tag field when the payload was interned
      byte 1    0x80 + flags: the high bit marks the stored form, the rest are the wire form's flags
      varint           target code        (names hash: c:<code> = name, n:<name> = code)
      varint           origin stem code
      the rest, byte for byte as in the wire form

  The names hash (one per slot, store/Keys.names: n:<name> = code, c:<code> = name, next, tag; append-only, capped)
  is read and written through lib/nameCodes, whose table the script shares with lib/memberIds. Anything that is
  not a readable wire form passes through unchanged (see intern below).

  When the names hash is full (its cap, lib/nameCodes) and the target or origin stem has no code, the
  payload is stored in the wire form, un-interned: every reader passes a wire form through (lib/expandNames,
  store/StoredForms), so the message is delivered as any other, and it costs its names' bytes until then.

    local intern = namesInterner(codes)   one per script call, codes = nameCodes(namesKey), its cap set
    intern(envelope)                      the stored form, and false; a name without a code gets the next
                                          one. The wire form unchanged, and true, when a name gets no code
                                          (the names hash is full). Anything but a readable wire form is
                                          returned unchanged, and false (the bridge then refuses it when
                                          claimed, rather than this script failing a whole batch)
]]
-- @include lib/varint
-- @include lib/nameCodes
local function namesInterner(codes)
  -- A batch carries the same few flags, target and origin stem combinations: each is looked up once, then
  -- an envelope costs a table look-up and one concatenation.
  local storedHeads = {}

  return function(envelope)
    local magic, version, flags = string.byte(envelope, 1, 3)
    if magic ~= 0xDB or version ~= 3 or not flags or flags >= 0x80 then return envelope, false end
    local targetLength, targetAt = readVarint(envelope, 4)
    if not targetLength then return envelope, false end
    local stemLength, stemAt = readVarint(envelope, targetAt + targetLength)
    if not stemLength or stemAt + stemLength - 1 > #envelope then return envelope, false end
    local namesEnd = stemAt + stemLength - 1
    local wireHead = string.sub(envelope, 3, namesEnd)
    local storedHead = storedHeads[wireHead]
    if storedHead == nil then
      local targetCode = codes.codeOf(string.sub(envelope, targetAt, targetAt + targetLength - 1))
      local stemCode = targetCode and codes.codeOf(string.sub(envelope, stemAt, namesEnd))
      storedHead = stemCode and (string.char(codes.ownTag(), 0x80 + flags) .. varint(targetCode) .. varint(stemCode))
      storedHeads[wireHead] = storedHead
    end
    if not storedHead then return envelope, true end
    return storedHead .. string.sub(envelope, namesEnd + 1), false
  end
end
