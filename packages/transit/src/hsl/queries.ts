// Every GraphQL document this package sends to OpenTripPlanner 2 (Digitransit). They are validated in a test
// against the OTP schema shipped by @opentripplanner/core-utils and, when present, the upstream and HSL-fork
// .graphqls files. Only fields that are mapped are selected.

/**
 * What alerts.ts reads of an OTP `Alert`: texts with every translation (the language is picked here, along the
 * fallback chain), severity, effect, cause and validity. Selected unless `$withAlerts` is false (HSL_ALERTS_MAX = 0).
 */
const ALERTS = /* GraphQL */ `
  alerts @include(if: $withAlerts) {
    id
    alertHash
    alertHeaderText
    alertDescriptionText
    alertUrl
    alertHeaderTextTranslations {
      text
      language
    }
    alertDescriptionTextTranslations {
      text
      language
    }
    alertUrlTranslations {
      text
      language
    }
    alertSeverityLevel
    alertEffect
    alertCause
    effectiveStartDate
    effectiveEndDate
  }
`;

/**
 * get_departures: one stop and its next departures, cancellations included, non-pickups left out; with the
 * alerts of the stop, of each route serving it (once per route, not once per departure) and of each
 * departure's trip, in the same request.
 */
export const STOP_DEPARTURES_QUERY = /* GraphQL */ `
  query StopDepartures(
    $id: String!
    $startTime: Long!
    $timeRange: Int!
    $numberOfDepartures: Int!
    $withAlerts: Boolean = true
  ) {
    stop(id: $id) {
      gtfsId
      name
      platformCode
      ${ALERTS}
      routes @include(if: $withAlerts) {
        gtfsId
        ${ALERTS}
      }
      stoptimesWithoutPatterns(
        startTime: $startTime
        timeRange: $timeRange
        numberOfDepartures: $numberOfDepartures
        omitCanceled: false
        omitNonPickups: true
      ) {
        serviceDay
        scheduledDeparture
        realtimeDeparture
        realtime
        realtimeState
        headsign
        stop {
          platformCode
        }
        trip {
          tripHeadsign
          ${ALERTS}
          route {
            gtfsId
            shortName
            longName
            mode
          }
        }
      }
    }
  }
`;

const PLACE_FIELDS = /* GraphQL */ `
  name
  lat
  lon
  stop {
    gtfsId
    wheelchairBoarding @include(if: $wheelchair)
  }
`;

const LEG_TIME_FIELDS = /* GraphQL */ `
  scheduledTime
  estimated {
    time
  }
`;

/**
 * plan_trip: planConnection (not the deprecated `plan`), realtime cancellations included; each leg with its
 * alerts (OTP gathers those of the leg's route, trip and stops).
 */
export const PLAN_CONNECTION_QUERY = /* GraphQL */ `
  query PlanTrip(
    $origin: PlanLabeledLocationInput!
    $destination: PlanLabeledLocationInput!
    $dateTime: PlanDateTimeInput!
    $first: Int!
    $maximumTransfers: Int!
    $transferCost: Cost!
    $walkReluctance: Reluctance!
    $wheelchair: Boolean!
    $withAlerts: Boolean = true
  ) {
    planConnection(
      origin: $origin
      destination: $destination
      dateTime: $dateTime
      first: $first
      preferences: {
        accessibility: { wheelchair: { enabled: $wheelchair } }
        street: { walk: { reluctance: $walkReluctance } }
        transit: {
          transfer: { maximumTransfers: $maximumTransfers, cost: $transferCost }
          timetable: { includeRealTimeCancellations: true }
        }
      }
    ) {
      routingErrors {
        code
        description
        inputField
      }
      edges {
        node {
          start
          end
          duration
          walkDistance
          numberOfTransfers
          legs {
            mode
            transitLeg
            realTime
            realtimeState
            distance
            duration
            headsign
            start {
              ${LEG_TIME_FIELDS}
            }
            end {
              ${LEG_TIME_FIELDS}
            }
            from {
              ${PLACE_FIELDS}
            }
            to {
              ${PLACE_FIELDS}
            }
            route {
              shortName
            }
            trip {
              gtfsId
              wheelchairAccessible @include(if: $wheelchair)
            }
            ${ALERTS}
          }
        }
      }
    }
  }
`;

/** What find_stops reads of a stop. */
const FOUND_STOP_FIELDS = /* GraphQL */ `
  gtfsId
  name
  code
  platformCode
  lat
  lon
  vehicleMode
`;

/** find_stops by name or code. */
export const STOPS_BY_NAME_QUERY = /* GraphQL */ `
  query StopsByName($name: String!) {
    stops(name: $name) {
      ${FOUND_STOP_FIELDS}
    }
  }
`;

/** find_stops around a coordinate, nearest first. */
export const STOPS_NEAR_QUERY = /* GraphQL */ `
  query StopsNear($lat: Float!, $lon: Float!, $radius: Int!, $first: Int!) {
    stopsByRadius(lat: $lat, lon: $lon, radius: $radius, first: $first) {
      edges {
        node {
          distance
          stop {
            ${FOUND_STOP_FIELDS}
          }
        }
      }
    }
  }
`;

/** Every document, by name: what the schema-validation test checks. */
export const GRAPHQL_DOCUMENTS = {
  StopDepartures: STOP_DEPARTURES_QUERY,
  PlanTrip: PLAN_CONNECTION_QUERY,
  StopsByName: STOPS_BY_NAME_QUERY,
  StopsNear: STOPS_NEAR_QUERY,
} as const;
