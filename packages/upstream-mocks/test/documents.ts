// The GraphQL documents these tests send; the fidelity test validates each against OTP's schemas.

export const STOP_DEPARTURES = /* GraphQL */ `
  query StopDepartures($id: String!, $n: Int, $omitCanceled: Boolean, $startTime: Long, $timeRange: Int) {
    stop(id: $id) {
      gtfsId
      name
      code
      platformCode
      lat
      lon
      vehicleMode
      stoptimes: stoptimesWithoutPatterns(
        numberOfDepartures: $n
        omitCanceled: $omitCanceled
        startTime: $startTime
        timeRange: $timeRange
      ) {
        scheduledDeparture
        realtimeDeparture
        departureDelay
        realtime
        realtimeState
        serviceDay
        headsign
        pickupType
        stop {
          platformCode
        }
        trip {
          gtfsId
          tripHeadsign
          route {
            shortName
            longName
            mode
          }
        }
      }
    }
  }
`;

export const STOP_DEFAULT_ARGS = /* GraphQL */ `
  query StopDefaults($id: String!) {
    stop(id: $id) {
      gtfsId
      stoptimesWithoutPatterns {
        realtimeState
      }
    }
  }
`;

export const STOP_NON_PICKUPS = /* GraphQL */ `
  query StopNonPickups($id: String!) {
    stop(id: $id) {
      all: stoptimesWithoutPatterns(numberOfDepartures: 50, omitCanceled: false) {
        pickupType
      }
      boarding: stoptimesWithoutPatterns(numberOfDepartures: 50, omitCanceled: false, omitNonPickups: true) {
        pickupType
      }
    }
  }
`;

export const ALIASED_STOPS = /* GraphQL */ `
  query Aliased {
    arkadia: stop(id: "HSL:1040129") {
      title: name
      id: gtfsId
    }
    missing: stop(id: "HSL:9999999") {
      name
    }
  }
`;

export const STOP_SEARCH = /* GraphQL */ `
  query StopSearch($name: String!, $lat: Float!, $lon: Float!, $radius: Int!) {
    stops(name: $name) {
      gtfsId
      name
      code
    }
    stopsByRadius(lat: $lat, lon: $lon, radius: $radius, first: 3) {
      edges {
        cursor
        node {
          distance
          stop {
            gtfsId
            name
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export const STATION = /* GraphQL */ `
  query Station($id: String!) {
    station(id: $id) {
      gtfsId
      name
      locationType
      stops {
        gtfsId
        platformCode
      }
    }
  }
`;

export const PLAN = /* GraphQL */ `
  query Plan(
    $origin: PlanLabeledLocationInput!
    $destination: PlanLabeledLocationInput!
    $dateTime: PlanDateTimeInput
    $first: Int
    $modes: PlanModesInput
    $maxTransfers: Int
    $wheelchair: Boolean
    $cancellations: Boolean
  ) {
    planConnection(
      origin: $origin
      destination: $destination
      dateTime: $dateTime
      first: $first
      modes: $modes
      preferences: {
        accessibility: { wheelchair: { enabled: $wheelchair } }
        transit: {
          transfer: { maximumTransfers: $maxTransfers }
          timetable: { includeRealTimeCancellations: $cancellations }
        }
      }
    ) {
      searchDateTime
      routingErrors {
        code
        description
        inputField
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
        searchWindowUsed
      }
      edges {
        cursor
        node {
          start
          end
          duration
          walkDistance
          numberOfTransfers
          accessibilityScore
          legs {
            mode
            realtimeState
            realTime
            distance
            duration
            interlineWithPreviousLeg
            accessibilityScore
            headsign
            start {
              scheduledTime
              estimated {
                time
                delay
              }
            }
            end {
              scheduledTime
              estimated {
                time
                delay
              }
            }
            from {
              name
              lat
              lon
              stop {
                gtfsId
              }
            }
            to {
              name
              lat
              lon
              stop {
                gtfsId
              }
            }
            route {
              gtfsId
              shortName
            }
            trip {
              gtfsId
            }
          }
        }
      }
    }
  }
`;

export const LEGACY_PLAN = /* GraphQL */ `
  query Legacy {
    plan(from: { lat: 60.1719, lon: 24.9314 }, to: { lat: 60.1989, lon: 24.9335 }, numItineraries: 2) {
      itineraries {
        start
        legs {
          mode
          start {
            scheduledTime
          }
        }
      }
      routingErrors {
        code
      }
    }
  }
`;

/** Everything a test sends that is meant to be valid. */
export const VALID_DOCUMENTS: Readonly<Record<string, string>> = {
  STOP_DEPARTURES,
  STOP_DEFAULT_ARGS,
  STOP_NON_PICKUPS,
  ALIASED_STOPS,
  STOP_SEARCH,
  STATION,
  PLAN,
  LEGACY_PLAN,
};

/** Coordinates in central Helsinki (Arkadiankatu) and Pasila. */
export const FROM = {
  location: { coordinate: { latitude: 60.1719, longitude: 24.9314 } },
  label: 'Arkadiankatu 7',
};
export const TO = { location: { coordinate: { latitude: 60.1989, longitude: 24.9335 } } };
