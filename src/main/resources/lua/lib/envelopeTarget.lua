--[[
  envelopeTarget (a fragment): the target of an envelope as the bridge writes it (EnvelopeCodec), without
  reading the rest: version 3 wire form (0xDB, 3, flags, varint length + target, ...) or versions 1 and 2
  (0xDB, version, int32 length + message id, int32 length + target, ...; docs/storage-formats.md).
    envelopeTarget(s, at)  the target of the envelope that starts at position at of s; nil when there is
                           no envelope of those forms there, or it is damaged
]]
-- @include lib/varint
local function envelopeTarget(s, at)
  local magic, version = string.byte(s, at, at + 1)
  if magic ~= 0xDB then return nil end
  local length, first
  if version == 3 then
    length, first = readVarint(s, at + 3)
  elseif version == 1 or version == 2 then
    if #s < at + 5 then return nil end
    local idLength = struct.unpack('>i4', s, at + 2)
    if idLength < 0 or #s < at + 9 + idLength then return nil end
    length, first = struct.unpack('>i4', s, at + 6 + idLength)
  else
    return nil
  end
  if not length or length < 0 or first + length - 1 > #s then return nil end
  return string.sub(s, first, first + length - 1)
end
