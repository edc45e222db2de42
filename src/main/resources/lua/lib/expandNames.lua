--[[
  expandNames (a fragment, included by the scripts that return a payload): turns an envelope from the
  stored form back into the wire form, so that the bridge never sees codes.

  The wire form and the stored form are laid out byte by byte in lib/internNames, which makes the stored
  form, and the names hash in lib/nameCodes; this fragment undoes exactly what lib/internNames does. A
  payload that is not in the stored form (a wire form stored past the names cap, or damage) passes through
  unchanged.

    local names = namesExpander(codes)   one per script call, codes = nameCodes(namesKey) (lib/nameCodes,
                                         shared with lib/memberIds): each name is looked up once
    names.expand(payload)    the wire form. A payload whose tag differs from the names hash's, or whose
                             codes the hash lacks (the key was deleted or replaced), is returned as it is:
                             the bridge refuses it with a message that says so and dead-letters it
                             (corrupt-envelope), rather than this script failing a whole claim
    names.target(payload)    just the target, of any form, without copying the body; '' when unreadable
]]
-- @include lib/varint
-- @include lib/envelopeTarget
-- @include lib/nameCodes
local function namesExpander(codes)
  -- where the rest starts after the two codes; nil when they cannot be read
  local function restAtOf(payload)
    local targetCode, stemCode = string.byte(payload, 3, 4)
    if stemCode and targetCode < 128 and stemCode < 128 then return 5 end  -- one-byte codes: the usual case
    local _, stemAt = readVarint(payload, 3)
    if not stemAt then return nil end
    local _, restAt = readVarint(payload, stemAt)
    return restAt
  end

  -- target and origin stem; nil when the codes cannot be resolved
  local function resolve(payload)
    if string.byte(payload, 1) ~= codes.tag() then return nil end
    local targetCode, stemAt = readVarint(payload, 3)
    if not targetCode then return nil end
    local stemCode = readVarint(payload, stemAt)
    if not stemCode then return nil end
    local target, stem = codes.nameOf(targetCode), codes.nameOf(stemCode)
    if not target or not stem then return nil end
    return target, stem
  end

  local function isStored(payload)
    local head = string.byte(payload, 2)
    return head ~= nil and head >= 0x80
  end

  -- A claim returns many payloads with the same few heads (tag, flags, codes): each is resolved once,
  -- then a payload costs a table look-up and one concatenation.
  local wireHeads = {}

  local function wireHeadOf(storedHead)
    local target, stem = resolve(storedHead)
    if not target then return false end
    return string.char(0xDB, 3, string.byte(storedHead, 2) - 0x80) .. varint(#target) .. target .. varint(#stem) .. stem
  end

  local expander = {}

  function expander.expand(payload)
    if not isStored(payload) then return payload end
    local restAt = restAtOf(payload)
    if not restAt then return payload end
    local storedHead = string.sub(payload, 1, restAt - 1)
    local wireHead = wireHeads[storedHead]
    if wireHead == nil then
      wireHead = wireHeadOf(storedHead)
      wireHeads[storedHead] = wireHead
    end
    if not wireHead then return payload end
    return wireHead .. string.sub(payload, restAt)
  end

  function expander.target(payload)
    if isStored(payload) then return (resolve(payload)) or '' end
    return envelopeTarget(payload, 1) or ''
  end

  return expander
end
